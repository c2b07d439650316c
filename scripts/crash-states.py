#!/usr/bin/env python3
"""Crash consistency of the library, ALICE-style: record every file-system call an inkwell command
makes on a library (strace), rebuild the library as it would be after a crash at every point of
that sequence, and check each rebuilt library.

Usage: crash-states.py INKWELL [--keep DIR] [--only SCENARIO]     prints a JSON report, exits 1 when a state fails

The model is that of a journaling file system (ext4 with data=ordered, XFS, btrfs): changes to
folders (creations, renames, removals) reach the disk in the order they were made, each whole, and
the journal may be committed after any of them; file data reaches the disk only when the file is
fsynced. For each scenario (an operation on a prepared library) and each prefix of its calls, two
crash states are rebuilt from the library as it was before the operation:
  - "durable": the folder changes of the prefix, and of each file only the data it had when it was
    last fsynced (unsynced data dropped);
  - "all": every call of the prefix reached the disk.
Each distinct state is checked: `inkwell check` passes (leftover temporary files are allowed),
`note list` works, and the scenario's own invariant holds (the note's text is the old or the new
one, the moved note is in exactly one notebook, ...). The last optimistic state must equal the real
library after the command: that checks the model itself.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

SYSCALLS = ("openat,open,creat,write,pwrite64,writev,ftruncate,fsync,fdatasync,rename,renameat,renameat2,"
            "mkdir,mkdirat,unlink,unlinkat,rmdir,close,dup,dup2,dup3,fcntl,lseek,read,copy_file_range,sendfile,link,linkat,symlink")
LINE = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)')


def unhex(text):
    """A strace -xx string literal's bytes."""
    return bytes(int(m, 16) for m in re.findall(r'\\x([0-9a-f]{2})', text))


def arguments(text):
    """Splits a call's arguments at top-level commas (strings and braces kept whole)."""
    parts, depth, current, quoted = [], 0, "", False
    i = 0
    while i < len(text):
        c = text[i]
        if quoted:
            current += c
            if c == "\\":
                current += text[i + 1]
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            current += c
        elif c in "[{":
            depth += 1
            current += c
        elif c in "]}":
            depth -= 1
            current += c
        elif c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
        i += 1
    if current.strip():
        parts.append(current.strip())
    return parts


def string(arg):
    m = re.match(r'^"(.*)"(\.\.\.)?$', arg)
    if not m:
        raise ValueError("not a string: " + arg[:80])
    if m.group(2):
        raise ValueError("strace cut a string short: raise -s")
    return unhex(m.group(1))


def parse(trace_path):
    """The calls of a trace, in order: (name, args, result)."""
    calls, pending = [], {}
    with open(trace_path) as f:
        for raw in f:
            raw = raw.rstrip("\n")
            m = re.match(r'^(\d+)\s+(.*) <unfinished \.\.\.>$', raw)
            if m:
                pending[m.group(1)] = m.group(2)
                continue
            m = re.match(r'^(\d+)\s+<\.\.\. \w+ resumed>(.*)$', raw)
            if m:
                raw = m.group(1) + "  " + pending.pop(m.group(1)) + m.group(2)
            m = LINE.match(raw)
            if not m:
                continue
            calls.append((m.group(2), arguments(m.group(3)), m.group(4)))
    return calls


class Node:
    """An inode: a folder (entries) or a file, with its data as the running system sees it (`data`)
    and as of its last fsync (`durable_data`)."""

    def __init__(self, folder, data=b"", entries=None):
        self.folder = folder
        self.data = data
        self.durable_data = data
        self.entries = dict(entries or {})


class Model:
    def __init__(self, root):
        self.root_path = os.path.realpath(root)
        self.root = self.load(self.root_path)
        self.fds = {}
        self.cwd = os.getcwd()

    def load(self, path):
        if os.path.isdir(path):
            return Node(True, entries={name: self.load(os.path.join(path, name)) for name in os.listdir(path)})
        with open(path, "rb") as f:
            return Node(False, data=f.read())

    def inside(self, path):
        """In the modelled folder (the library and the exports beside it), and not the search index
        (a cache, rebuilt from the notes)."""
        path = os.path.normpath(path)
        if os.path.basename(path).startswith("index.sqlite"):
            return False
        return path == self.root_path or path.startswith(self.root_path + "/")

    def resolve(self, dirfd, raw):
        """The absolute path a call names, from a dirfd argument and a path argument."""
        path = string(raw).decode("utf-8", "surrogateescape")
        if path.startswith("/"):
            return path
        if dirfd == "AT_FDCWD":
            return os.path.join(self.cwd, path)
        opened = self.fds.get(int(dirfd))
        return os.path.join(opened["path"], path) if opened else None

    def parts(self, path):
        rel = os.path.relpath(os.path.normpath(path), self.root_path)
        return [] if rel == "." else rel.split("/")

    def lookup(self, path):
        node = self.root
        for part in self.parts(path):
            node = node.entries.get(part) if node and node.folder else None
        return node

    def parent(self, path):
        parts = self.parts(path)
        node = self.root
        for part in parts[:-1]:
            node = node.entries[part]
        return node, parts[-1]

    def apply(self, name, args, result):
        """Applies one successful call; returns True when it can change what a crash leaves."""
        if result == "?" or int(result) < 0:
            return False
        if name in ("openat", "open", "creat"):
            path = self.resolve(args[0], args[1]) if name == "openat" else self.resolve("AT_FDCWD", args[0])
            if path is None or not self.inside(path):
                return False
            flags = args[2] if name == "openat" else (args[1] if name == "open" else "O_CREAT|O_WRONLY|O_TRUNC")
            node = self.lookup(path)
            if node is None:
                if "O_CREAT" not in flags:
                    return False
                folder, base = self.parent(path)
                node = Node(False)
                folder.entries[base] = node
            if "O_TRUNC" in flags and not node.folder:
                node.data = b""
            self.fds[int(result)] = {"node": node, "path": path, "offset": 0, "append": "O_APPEND" in flags}
            return "O_CREAT" in flags or "O_TRUNC" in flags
        if name in ("dup", "dup2", "dup3", "fcntl"):
            old = int(args[0])
            if name == "fcntl" and "F_DUPFD" not in args[1]:
                return False
            if old in self.fds:
                self.fds[int(result)] = self.fds[old]
            return False
        if name in ("lseek", "read"):
            # Where the next write lands: libzip reads its archive back and seeks to fill in headers.
            fd = self.fds.get(int(args[0]))
            if fd is not None:
                fd["offset"] = int(result) if name == "lseek" else fd["offset"] + int(result)
            return False
        if name == "close":
            self.fds.pop(int(args[0]), None)
            return False
        if name in ("write", "pwrite64"):
            fd = self.fds.get(int(args[0]))
            if fd is None:
                return False
            data = string(args[1])[: int(result)]
            node = fd["node"]
            if name == "pwrite64":
                offset = int(args[3])
            else:
                offset = len(node.data) if fd["append"] else fd["offset"]
            node.data = node.data[:offset].ljust(offset, b"\0") + data + node.data[offset + len(data):]
            if name == "write":
                fd["offset"] = offset + len(data)
            return True
        if name == "ftruncate":
            fd = self.fds.get(int(args[0]))
            if fd is None:
                return False
            size = int(args[1])
            fd["node"].data = fd["node"].data[:size].ljust(size, b"\0")
            return True
        if name in ("fsync", "fdatasync"):
            fd = self.fds.get(int(args[0]))
            if fd is None:
                return False
            node = fd["node"]
            if not node.folder:
                node.durable_data = node.data
            return True
        if name in ("rename", "renameat", "renameat2"):
            if name == "rename":
                old, new = self.resolve("AT_FDCWD", args[0]), self.resolve("AT_FDCWD", args[1])
            else:
                old, new = self.resolve(args[0], args[1]), self.resolve(args[2], args[3])
            if old is None or new is None:
                raise ValueError("a rename relative to a folder the model did not see opened")
            if not (self.inside(old) or self.inside(new)):
                return False
            if not (self.inside(old) and self.inside(new)):
                raise ValueError("rename across the library's edge: %s -> %s" % (old, new))
            folder, base = self.parent(old)
            node = folder.entries.pop(base)
            folder2, base2 = self.parent(new)
            folder2.entries[base2] = node
            return True
        if name in ("mkdir", "mkdirat"):
            path = self.resolve(args[0], args[1]) if name == "mkdirat" else self.resolve("AT_FDCWD", args[0])
            if path is None or not self.inside(path):
                return False
            folder, base = self.parent(path)
            folder.entries[base] = Node(True)
            return True
        if name in ("unlink", "unlinkat", "rmdir"):
            path = self.resolve(args[0], args[1]) if name == "unlinkat" else self.resolve("AT_FDCWD", args[0])
            if path is None or not self.inside(path):
                return False
            folder, base = self.parent(path)
            folder.entries.pop(base, None)
            return True
        if name in ("link", "linkat", "symlink", "copy_file_range", "sendfile", "writev"):
            raise ValueError("the model does not follow %s yet" % name)
        return False

    def materialize(self, target, durable):
        """Writes the tree a crash would leave (durable) or the tree as the system sees it."""
        def write(node, path):
            if node.folder:
                os.makedirs(path, exist_ok=True)
                for name, child in node.entries.items():
                    write(child, os.path.join(path, name))
            else:
                with open(path, "wb") as f:
                    f.write(node.durable_data if durable else node.data)
        write(self.root, target)

    def digest(self, durable):
        h = hashlib.sha256()
        def walk(node, path):
            if node.folder:
                h.update(b"D" + path.encode())
                for name, child in sorted(node.entries.items()):
                    walk(child, path + "/" + name)
            else:
                h.update(b"F" + path.encode() + b"\0" + (node.durable_data if durable else node.data))
        walk(self.root, "")
        return h.hexdigest()


def _short(arg):
    """A long string argument as readable text, cut."""
    try:
        return repr(string(arg).decode("utf-8", "replace")[-60:])
    except ValueError:
        return arg[:60]


def tree_digest(root):
    """The same digest for a real folder, to compare the model's end state with the real one."""
    h = hashlib.sha256()
    def walk(path, rel):
        if os.path.isdir(path):
            h.update(b"D" + rel.encode())
            for name in sorted(os.listdir(path)):
                walk(os.path.join(path, name), rel + "/" + name)
        else:
            with open(path, "rb") as f:
                h.update(b"F" + rel.encode() + b"\0" + f.read())
    walk(root, "")
    return h.hexdigest()


def run(inkwell, library, *args, stdin=None):
    env = dict(os.environ, INKWELL_LIBRARY=library)
    if os.path.isdir(exports_tmp(library)):
        env["TMPDIR"] = exports_tmp(library)
    return subprocess.run([inkwell, *args], env=env, capture_output=True, text=True, input=stdin)


def exports_folder(library):
    """Where exports go: beside the library (no output may be written inside it), in the folder the
    model follows."""
    return os.path.join(os.path.dirname(library), "exports")


def exports_tmp(library):
    """$TMPDIR of every command where the scenario made it: a folder beside the library, so that the
    model sees what is written there (an export's temporaries must not be left in it)."""
    return os.path.join(exports_folder(library), "tmp")


def without_index(folder):
    """The index is a cache rebuilt from the notes: crash states are checked without it."""
    for name in os.listdir(folder):
        if name.startswith("index.sqlite"):
            os.remove(os.path.join(folder, name))


def scenarios(inkwell, work):
    """(name, prepare(library) -> context, the command's arguments(context), invariant(library, context) -> error or None)."""
    samples = os.path.join(work, "samples")
    run(inkwell, os.path.join(work, "unused"), "sample", "-o", samples, "--notes", "1", "--pages", "2", "--jitter", "none")
    sample = os.path.join(samples, sorted(n for n in os.listdir(samples) if n.endswith(".jsonl"))[0])
    text_file = os.path.join(work, "new.md")
    with open(text_file, "w") as f:
        f.write("the new text #followup\n- [ ] call back\n")

    def notes(library):
        listed = run(inkwell, library, "note", "list", "--json")
        if listed.returncode != 0:
            return None, "note list failed: " + listed.stderr.strip()
        return json.loads(listed.stdout), None

    def base(library):
        for args in (["init"], ["note", "create", "Plan", "--notebook", "Work"], ["notebook", "create", "Archive"]):
            run(inkwell, library, *args)
        run(inkwell, library, "note", "text", "Plan", "--set", "-", stdin="the old text\n")
        run(inkwell, library, "note", "tag", "Plan", "--add", "later")
        run(inkwell, library, "import", sample, "--no-recognize")
        return {}

    def text_invariant(library, _):
        shown = run(inkwell, library, "note", "text", "Plan", "--json")
        if shown.returncode != 0:
            return "note text failed: " + shown.stderr.strip()
        text = json.loads(shown.stdout)["text"]
        if text not in ("the old text\n", open(text_file).read()):
            return "the text is neither the old nor the new one: %r" % text
        # Compound: the text's hashtags are the note's tags whatever the crash point (body.md and
        # note.json agree).
        listed, error = notes(library)
        if error:
            return error
        tags = [n["tags"] for n in listed if n["title"] == "Plan"]
        if "#followup" in text and (len(tags) != 1 or "followup" not in tags[0]):
            return "the new text's #followup is not a tag of the note: %r" % tags
        return None

    def import_invariant(library, _):
        listed, error = notes(library)
        if error:
            return error
        imported = [n for n in listed if n["source"] == "import:replay"]
        if len(imported) not in (1, 2):
            return "%d imported notes, expected 1 or 2" % len(imported)
        if any(n["pages"] != 2 for n in imported):
            return "an imported note does not have its 2 pages: %r" % imported
        return None

    def listed_once_in(*notebooks):
        """The rule of a move or rename: Plan is listed exactly once, in one of `notebooks`."""
        def invariant(library, _):
            listed, error = notes(library)
            if error:
                return error
            plans = [n for n in listed if n["title"] == "Plan"]
            if len(plans) != 1 or plans[0]["notebook"] not in notebooks:
                return "Plan is listed %d times, in %r" % (len(plans), [n["notebook"] for n in plans])
            return None
        return invariant

    def once_here_or_in_trash(library, title):
        """The note titled `title` is in the library or in the trash, exactly once."""
        listed, error = notes(library)
        if error:
            return error
        trash = run(inkwell, library, "trash", "list", "--json")
        if trash.returncode != 0:
            return "trash list failed: " + trash.stderr.strip()
        here = [n for n in listed if n["title"] == title]
        trashed = [t for t in json.loads(trash.stdout) if t["title"] == title]
        if len(here) + len(trashed) != 1:
            return "%s is in the library %d times and in the trash %d times" % (title, len(here), len(trashed))
        return None

    def delete_invariant(library, _):
        return once_here_or_in_trash(library, "Plan")

    def deleted(library):
        base(library)
        run(inkwell, library, "note", "delete", "Plan")
        return {}

    def trash_whole_or_gone(library, _):
        """Compound: every entry folder in the trash is whole (its trash.json with it) or gone."""
        trash = run(inkwell, library, "trash", "list", "--json")
        if trash.returncode != 0:
            return "trash list failed: " + trash.stderr.strip()
        listed = {t["id"] for t in json.loads(trash.stdout)}
        folder = os.path.join(library, "trash")
        for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if entry.startswith("."):
                continue
            if entry not in listed and os.listdir(os.path.join(folder, entry)):
                return "trash/%s holds %r but is not a trash entry" % (entry, sorted(os.listdir(os.path.join(folder, entry))))
        return None

    def created_at_most_once(library, _):
        listed, error = notes(library)
        if error:
            return error
        fresh = [n for n in listed if n["title"] == "Fresh"]
        if len(fresh) > 1 or (fresh and fresh[0]["notebook"] != "Work"):
            return "Fresh is listed %d times, in %r" % (len(fresh), [n["notebook"] for n in fresh])
        return None

    def exporting(library):
        base(library)
        os.makedirs(exports_tmp(library), exist_ok=True)
        return {}

    def export_whole_and_swept(library, _):
        """Compound: the archive is whole or absent, and no temporary of the export (beside it or in
        $TMPDIR) outlives the next export into the same folder."""
        exports = exports_folder(library)
        archive = os.path.join(exports, "all.zip")
        if os.path.exists(archive) and not zipfile.is_zipfile(archive):
            return "exports/all.zip is not a whole archive"
        again = run(inkwell, library, "export", "--all", "--format", "svg", "--zip", archive, "--on-conflict", "overwrite")
        if again.returncode != 0:
            return "exporting again failed: " + again.stderr.strip()
        left = sorted(os.path.relpath(os.path.join(d, n), exports) for d, folders, files in os.walk(exports) for n in folders + files)
        left = [n for n in left if n not in ("all.zip", "tmp")]
        if left:
            return "the export's temporaries outlive the next export: %r" % left
        return None

    def tag_invariant(library, _):
        listed, error = notes(library)
        if error:
            return error
        plans = [n for n in listed if n["title"] == "Plan"]
        if len(plans) != 1 or sorted(plans[0]["tags"]) not in (["later"], ["later", "soon"]):
            return "Plan's tags are %r" % [n["tags"] for n in plans]
        return None

    source = os.path.join(work, "source.jsonl")

    def add_stroke(recording):
        """Appends one stroke, a second after its last event, to the replay log `recording`."""
        last = json.loads(open(recording).read().strip().splitlines()[-1])
        t = float(last.get("t", 0)) + 1
        with open(recording, "a") as f:
            f.write(json.dumps({"type": "down", "t": t, "x": 300, "y": 700, "p": 0.5}) + "\n")
            f.write(json.dumps({"type": "move", "t": t + 0.01, "x": 340, "y": 710, "p": 0.5}) + "\n")
            f.write(json.dumps({"type": "up", "t": t + 0.02, "x": 380, "y": 720}) + "\n")

    def imported_before(library):
        """The library with `source` imported, then `source` changed: a stroke added to its last page."""
        base(library)
        shutil.copyfile(sample, source)
        report = json.loads(run(inkwell, library, "import", source, "--no-recognize", "--json").stdout)
        note = report["imported"][0]["notes"][0]
        before = [p["strokes"] for p in json.loads(run(inkwell, library, "note", "show", note["id"], "--json").stdout)["pages"]]
        add_stroke(source)
        return {"id": note["id"], "before": before, "after": before[:-1] + [before[-1] + 1]}

    def update_invariant(library, context):
        """The updated note is there once, with the old pages or the new ones, every page readable."""
        shown = run(inkwell, library, "note", "show", context["id"], "--json")
        if shown.returncode != 0:
            return "note show failed: " + shown.stderr.strip()
        pages = json.loads(shown.stdout)["pages"]
        if any(p.get("damage") for p in pages):
            return "a page is damaged: %r" % pages
        strokes = [p["strokes"] for p in pages]
        if strokes not in (context["before"], context["after"]):
            return "the note's strokes per page are %r, neither the old %r nor the new %r" % (strokes, context["before"], context["after"])
        return None

    synced = os.path.join(work, "synced")

    def synced_before(library):
        """The library with the folder `synced` (two sources, "Synced A" and "Synced B") synced, then A
        changed (a stroke added to its last page) and B removed from the folder."""
        base(library)
        shutil.rmtree(synced, ignore_errors=True)
        os.makedirs(synced)
        for name in ("A", "B"):
            lines = [json.loads(line) for line in open(sample).read().strip().splitlines()]
            for line in lines:
                if line.get("type") == "note":
                    line["title"] = "Synced " + name
            with open(os.path.join(synced, name.lower() + ".jsonl"), "w") as f:
                f.write("\n".join(json.dumps(line) for line in lines) + "\n")
        report = json.loads(run(inkwell, library, "sync", synced, "--no-recognize", "--json").stdout)
        ids = {f["file"]: f["notes"][0]["id"] for f in report["imported"]["imported"]}
        a = ids[os.path.join(synced, "a.jsonl")]
        before = [p["strokes"] for p in json.loads(run(inkwell, library, "note", "show", a, "--json").stdout)["pages"]]
        path = os.path.join(synced, "a.jsonl")
        add_stroke(path)
        os.remove(os.path.join(synced, "b.jsonl"))
        return {"id": a, "before": before, "after": before[:-1] + [before[-1] + 1]}

    def sync_invariant(library, context):
        """A has the old pages or the new ones; B is in the library or in the trash, once. Then the
        sync run again (as after a kill) finishes it: A has the new pages, B is in the trash, and A's
        retired pages are in the trash once."""
        problem = update_invariant(library, context)
        if problem:
            return "Synced A: " + problem
        problem = once_here_or_in_trash(library, "Synced B")
        if problem:
            return problem
        again = run(inkwell, library, "sync", synced, "--no-recognize")
        if again.returncode != 0:
            return "the sync run again failed: " + again.stderr.strip()
        problem = update_invariant(library, dict(context, before=context["after"]))
        if problem:
            return "after the sync run again, Synced A: " + problem
        trash = json.loads(run(inkwell, library, "trash", "list", "--json").stdout)
        retired = [t for t in trash if t["title"] == "Synced A (before an update from its source)"]
        if len(retired) != 1:
            return "after the sync run again, A's retired pages are in the trash %d times" % len(retired)
        listed, error = notes(library)
        if error or any(n["title"] == "Synced B" for n in listed):
            return "after the sync run again, Synced B is still in the library"
        return None

    return [
        ("import again (update)", imported_before, ["import", source, "--no-recognize"], update_invariant),
        ("sync (update, trash)", synced_before, ["sync", synced, "--no-recognize"], sync_invariant),
        ("note text --set", base, ["note", "text", "Plan", "--set", text_file], text_invariant),
        ("note tag", base, ["note", "tag", "Plan", "--add", "soon"], tag_invariant),
        # --as-new: the sample is in the library already, and importing it again would change nothing.
        ("import", base, ["import", sample, "--no-recognize", "--as-new"], import_invariant),
        ("note move", base, ["note", "move", "Plan", "Archive"], listed_once_in("Work", "Archive")),
        ("note delete", base, ["note", "delete", "Plan"], delete_invariant),
        ("trash restore", deleted, ["trash", "restore", "Plan"], delete_invariant),
        ("trash empty", deleted, ["trash", "empty", "--yes"], trash_whole_or_gone),
        ("notebook rename", base, ["notebook", "rename", "Work", "Projects"], listed_once_in("Work", "Projects")),
        ("note create", base, ["note", "create", "Fresh", "--notebook", "Work"], created_at_most_once),
        ("export --zip", exporting, ["export", "--all", "--format", "svg", "--zip", os.path.join(work, "home", "exports", "all.zip")],
         export_whole_and_swept),
    ]


def explore(inkwell, work, name, prepare, command, invariant, keep):
    # The model follows `home`: the library, and the exports folder beside it.
    home = os.path.join(work, "home")
    library = os.path.join(home, "library")
    shutil.rmtree(home, ignore_errors=True)
    os.makedirs(home)
    context = prepare(library)
    without_index(library)
    before = os.path.join(work, "before")
    shutil.rmtree(before, ignore_errors=True)
    shutil.copytree(home, before)
    trace = os.path.join(work, "trace")
    traced = subprocess.run(["strace", "-f", "-qq", "-xx", "-s", "16777216", "-o", trace, "-e", "trace=" + SYSCALLS,
                             inkwell, *command], env=dict(os.environ, INKWELL_LIBRARY=library,
                                                          **({"TMPDIR": exports_tmp(library)} if os.path.isdir(exports_tmp(library)) else {})),
                            capture_output=True, text=True)
    if traced.returncode != 0:
        return {"scenario": name, "error": "the command failed: " + traced.stderr.strip()}
    model = Model(before)
    model.root_path = os.path.realpath(home)
    calls = parse(trace)
    seen, checked, failures, points, last_call = set(), 0, [], 0, "(before)"
    state = os.path.join(work, "state")

    def check(durable, point):
        nonlocal checked
        digest = model.digest(durable)
        if digest in seen:
            return
        seen.add(digest)
        shutil.rmtree(state, ignore_errors=True)
        model.materialize(state, durable)
        checked += 1
        problem = None
        crashed = os.path.join(state, "library")
        if not os.path.exists(os.path.join(crashed, "inkwell-library.json")):
            problem = "the library marker is gone"
        if problem is None:
            verified = run(inkwell, crashed, "check", "--json")
            if verified.returncode != 0:
                problem = "check failed: " + (verified.stderr.strip() or verified.stdout[:400])
        if problem is None:
            problem = invariant(crashed, context)
        if problem:
            failures.append({"after": point, "state": "durable" if durable else "all", "call": last_call, "problem": problem})
            if keep:
                shutil.copytree(state, os.path.join(keep, "%s-%d-%s" % (name.replace(" ", "_"), point, "durable" if durable else "all")))

    check(True, 0)
    for call in calls:
        try:
            changed = model.apply(*call)
        except (ValueError, KeyError) as error:
            return {"scenario": name, "error": "cannot follow %s%r: %s" % (call[0], call[1][:2], error)}
        if changed:
            points += 1
            last_call = "%s(%s)" % (call[0], ", ".join(a if len(a) < 60 else _short(a) for a in call[1][:2]))
            check(True, points)
            check(False, points)
    without_index(library)
    # Compound: no temporary file or staging area outlives the command that made it.
    left = [os.path.relpath(os.path.join(d, f), library) for d, folders, files in os.walk(library) for f in files + folders
            if f.endswith(".tmp") or "inkwell-export-" in f or os.path.relpath(d, library).startswith(".staging")]
    left += [os.path.relpath(os.path.join(library, ".staging", a), library)
             for a in (os.listdir(os.path.join(library, ".staging")) if os.path.isdir(os.path.join(library, ".staging")) else [])]
    if left:
        failures.append({"after": points, "state": "final", "call": "(the command's end)", "problem": "left behind: %r" % left})
    real = tree_digest(home)
    modelled = model.digest(False)
    return {"scenario": name, "calls": points, "states": checked, "failures": failures,
            "model_matches": real == modelled}


def main():
    inkwell = os.path.abspath(sys.argv[1])
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    work = tempfile.mkdtemp(prefix="inkwell-crash-")
    try:
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
        results = [explore(inkwell, work, *scenario, keep) for scenario in scenarios(inkwell, work)
                   if only is None or scenario[0] == only]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(results, indent=2))
    bad = any(r.get("error") or r["failures"] or not r["model_matches"] for r in results)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

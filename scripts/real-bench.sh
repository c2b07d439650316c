#!/usr/bin/env bash
# Release-build benchmark on real handwriting: the transcribed reMarkable and Rnote pages of the corpus
# (../shared/corpus/transcriptions, or --corpus DIR / INKWELL_CORPUS), imported by Inkwell, read by the
# recogniser and by the `tesseract` CLI, and searched; prints a Markdown table of word accuracy, CER,
# search recall and CPU per page.
#
#   scripts/real-bench.sh                    ours at --quality best and fast, and the CLI
#   scripts/real-bench.sh --quality fast     ours at one quality, and the CLI
#   scripts/real-bench.sh --verbose          also each reader's text next to the transcription, and the words search missed
#
# INKWELL_REAL_DUMP=folder keeps our line images; the environment and build are recognition-bench.sh's.
exec "$(dirname "$0")/recognition-bench.sh" real "$@"

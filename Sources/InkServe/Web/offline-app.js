// The notebook as an app that opens offline: the service worker (/sw.js) keeps its files. Browsers
// allow one only in a secure context (https, or this machine's own address): elsewhere nothing is kept.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("Inkwell works online only here:", error));
}

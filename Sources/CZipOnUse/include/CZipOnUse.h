// libzip, loaded on first use instead of linked: it and what it pulls in (libcrypto, libbz2) cost
// every command start-up time, and only ZIP exports and zip-packaged imports need them
// (docs/benchmarks.md, start-up). The Swift sources call libzip's functions by their own names through
// the CZip module (its header); this target defines each of them (zip_on_use.c, written by
// scripts/forwarders.py), forwarding to libzip once loaded. Nothing is declared here.

/* cipher-selftest.cpp: stub, being written. */

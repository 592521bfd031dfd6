/* cipher-ofb.cpp: stub, being written. */

/* cipher-cbc.cpp: stub, being written. */

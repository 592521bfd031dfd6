/* cipher-cfb.cpp: stub, being written. */

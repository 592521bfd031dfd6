/* cipher-ctr.cpp: stub, being written. */

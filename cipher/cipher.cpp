/* cipher.cpp: stub, being written. */

/* preload.cpp: stub, being written. */

/* secmem.cpp: stub, being written. */

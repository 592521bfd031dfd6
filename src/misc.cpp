/* misc.cpp: stub, being written. */

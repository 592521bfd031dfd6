/* random.cpp: stub, being written. */

/* testutil.cpp: stub, being written. */

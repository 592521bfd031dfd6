/* visibility.cpp: stub, being written. */

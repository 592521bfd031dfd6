/* rijndael-generic.cpp: stub, being written. */

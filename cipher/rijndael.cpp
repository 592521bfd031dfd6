/* rijndael.cpp: stub, being written. */

/* rijndael-aesni.cpp: stub, being written. */

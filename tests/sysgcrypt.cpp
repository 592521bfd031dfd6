/* sysgcrypt.cpp: stub, being written. */

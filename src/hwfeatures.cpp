/* hwfeatures.cpp: stub, being written. */

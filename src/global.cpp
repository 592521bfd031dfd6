/* global.cpp: stub, being written. */

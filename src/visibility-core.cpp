/* visibility-core.cpp: stub, being written. */

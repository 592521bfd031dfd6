#!/bin/sh
# stub
exit 77

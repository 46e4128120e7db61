/* alloc.c: see alloc.h. */
#include "alloc.h"

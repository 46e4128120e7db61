/* cel.c: see cel.h. */
#include "cel.h"

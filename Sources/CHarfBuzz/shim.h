#include <hb.h>
#include <hb-ft.h>
#include <hb-ot.h>
#include <hb-subset.h>

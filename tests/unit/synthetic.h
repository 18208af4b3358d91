/* SPDX-License-Identifier: GPL-2.0 */
/* A machine we do not have, for a test: an hwloc synthetic topology. */
#ifndef HZF_TEST_SYNTHETIC_H
#define HZF_TEST_SYNTHETIC_H

#include <stdlib.h>

#include "../../harness/run/topo.h"

/* zf_topo_open() of HWLOC_SYNTHETIC=synthetic, the variable unset again */
static inline int open_synthetic(struct zf_topo *topo, const char *synthetic)
{
	char why[256];
	int err;

	setenv("HWLOC_SYNTHETIC", synthetic, 1);
	err = zf_topo_open(topo, NULL, why, sizeof(why));
	unsetenv("HWLOC_SYNTHETIC");
	return err;
}

#endif

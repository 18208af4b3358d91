// SPDX-License-Identifier: GPL-2.0
/*
 * The contention model: see model.h, and docs/model.md for why each term is
 * there. Pure arithmetic on a hand-off matrix; zf_model_main() (modelcmd.c)
 * feeds it from a results folder, a c2c.csv, or a machine we do not have.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/strategy.h"
#include "csv.h"
#include "model.h"
#include "parse.h"

const char *const zf_level_names[ZF_LV_N] = { "core", "node", "package", "machine" };

int zf_model_levels_parse(const char *spec, double lv[ZF_LV_N], const char **why)
{
	char *buf, **items;
	size_t n, i;
	int k, ret = 0;

	for (k = 0; k < ZF_LV_N; k++)
		lv[k] = -1;
	if (!zf_parse_ns(spec, &lv[0])) {
		for (k = 1; k < ZF_LV_N; k++)
			lv[k] = lv[0];
		return 0;
	}
	if (zf_split_list(spec, &buf, &items, &n, why))
		return -EINVAL;
	for (i = 0; i < n && !ret; i++) {
		char *eq = strchr(items[i], '=');

		if (!eq) {
			*why = "an item is not LEVEL=NS (levels: core, node, package, machine)";
			ret = -EINVAL;
			break;
		}
		*eq = 0;
		for (k = 0; k < ZF_LV_N && strcmp(items[i], zf_level_names[k]); k++)
			;
		if (k == ZF_LV_N) {
			*why = "a level is not core, node, package or machine";
			ret = -EINVAL;
		} else if (lv[k] >= 0) {
			*why = "a level is given twice";
			ret = -EINVAL;
		} else if (zf_parse_ns(eq + 1, &lv[k])) {
			*why = "a latency is not a number of ns in [0, 1e9]";
			ret = -EINVAL;
		}
	}
	free(items);
	free(buf);
	return ret;
}

static enum zf_level pair_level(const struct zf_plan *p, int i, int j)
{
	if (p->core[i] == p->core[j])
		return ZF_LV_CORE;
	if (p->node[i] == p->node[j])
		return ZF_LV_NODE;
	if (p->package[i] == p->package[j])
		return ZF_LV_PACKAGE;
	return ZF_LV_MACHINE;
}

int zf_model_matrix_levels(const struct zf_plan *plan, const double lv[ZF_LV_N], double *h,
			   char *why, size_t len)
{
	int n = plan->ntasks, i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (i == j) {
				h[i * n + j] = -1;
				continue;
			}
			for (k = pair_level(plan, i, j); k < ZF_LV_N && lv[k] < 0; k++)
				;
			if (k == ZF_LV_N) {
				snprintf(why, len, "no latency for PUs %d and %d (level %s or outer)",
					 plan->pu[i], plan->pu[j],
					 zf_level_names[pair_level(plan, i, j)]);
				return -EINVAL;
			}
			h[i * n + j] = lv[k];
		}
	return 0;
}

double zf_model_handoff(const double *h, int stride, int n)
{
	double sum = 0;
	long cells = 0;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && h[i * stride + j] >= 0) {
				sum += h[i * stride + j];
				cells++;
			}
	return cells ? sum / cells : -1;
}

int zf_model_predict(const struct zf_model_in *in, const char *strategy, int n,
		     double handoff_ns, struct zf_model_out *out)
{
	double h = n > 1 && handoff_ns > 0 ? handoff_ns : 0;
	/*
	 * A lost CAS is one more locked op, on a line the failing cmpxchg has
	 * just fetched for writing: U again, not another trip.
	 */
	double u = in->get_ns * (1 + (in->retries > 0 ? in->retries : 0));
	/* nobody waiting: the line's last user is any task, another (n-1) times in n */
	double free_d = u + (n > 1 ? (double)(n - 1) / n : 0) * h;
	/* a queue: the line goes to a task that waited, so it always moves */
	double queue_d = u + h;
	/* the asymptotic bounds: all of one task's demands alone, or one line's queue */
	double alone, queue = 0, t, mms = in->threads ? 1 : n;
	double pp = (double)n * (in->faults_per_pass ? in->faults_per_pass : 1);
	const struct zf_strategy *s = zf_strategy_find(strategy);

	memset(out, 0, sizeof(*out));
	out->line_ns = free_d;
	if (!s)
		return -1;
	switch (s->model) {
	case ZF_MODEL_SHARED:
		/* its own work and one get, or its turn in the line's queue */
		alone = in->fixed_ns + free_d;
		queue = n * queue_d;
		if (queue > alone)
			out->line_ns = queue_d;
		break;
	case ZF_MODEL_PER_MM:
		/* one get per mm per pass, shared among the mm's tasks: no queue */
		alone = in->fixed_ns + mms * free_d / pp;
		break;
	case ZF_MODEL_UNCOUNTED:
		alone = in->fixed_ns;
		break;
	default:
		return -1;
	}
	t = alone > queue ? alone : queue;
	out->get_ns = t - in->fixed_ns;
	if (in->mm_line && n > 1) {
		/*
		 * The mm's line, a second server that every strategy uses once a
		 * fault: its trip joins the task's demands alone, its queue (n
		 * adds a round) is one more bound. Its add's U is in F already.
		 */
		double mm_alone = alone + (double)(n - 1) / n * h, mm_queue = n * (in->get_ns + h);
		double mm_t = mm_alone > queue ? mm_alone : queue;

		if (mm_queue > mm_t)
			mm_t = mm_queue;
		out->mm_ns = mm_t - t;
		t = mm_t;
	}
	out->ns_per_fault = t;
	out->get_share = t > 0 ? out->get_ns / t : 0;
	out->faults_per_sec = t > 0 ? n * 1e9 / t : 0;
	out->life_ns = out->put_ns = out->life_get_share = NAN;
	if (in->teardown_ns >= 0) {
		double z = in->teardown_ns, b = in->put_batch > 1 ? in->put_batch : 1;
		double tz_alone = z, tz_queue = 0, tz;

		if (s->model == ZF_MODEL_SHARED) {
			/*
			 * A put per zapped PMD, B of them in a row by one CPU for
			 * each move of the line: U each and a B-th of a trip,
			 * or, queued, n of those per teardown of each task's.
			 */
			tz_alone += in->get_ns + (n > 1 ? (double)(n - 1) / n : 0) * h / b;
			tz_queue = n * (in->get_ns + h / b);
		} else if (s->model == ZF_MODEL_PER_MM) {
			/* one put per mm, at its exit */
			tz_alone += mms * free_d / pp;
		}
		tz = tz_alone > tz_queue ? tz_alone : tz_queue;
		out->put_ns = tz - z;
		if (in->mm_line && n > 1) {
			/* and a sub on the mm's line per zapped PMD, B in a row a move */
			double mm_queue = n * (in->get_ns + h / b);

			tz_alone += (double)(n - 1) / n * h / b;
			tz = tz_alone > tz_queue ? tz_alone : tz_queue;
			if (mm_queue > tz)
				tz = mm_queue;
		}
		out->life_ns = t + tz;
		out->life_get_share = out->life_ns > 0 ? out->get_ns / out->life_ns : 0;
	}
	return 0;
}

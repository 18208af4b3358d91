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
	double t, mms = in->threads ? 1 : n;
	const struct zf_strategy *s = zf_strategy_find(strategy);

	memset(out, 0, sizeof(*out));
	out->line_ns = free_d;
	if (!s)
		return -1;
	switch (s->model) {
	case ZF_MODEL_SHARED:
		/* its own work and one get, or its turn in the line's queue */
		t = in->fixed_ns + free_d;
		if (n * queue_d > t) {
			t = n * queue_d;
			out->line_ns = queue_d;
		}
		break;
	case ZF_MODEL_PER_MM:
		/* one get per mm per pass, shared among the mm's tasks: no queue */
		t = in->fixed_ns + mms * free_d / ((double)n * (in->faults_per_pass ? in->faults_per_pass : 1));
		break;
	case ZF_MODEL_UNCOUNTED:
		t = in->fixed_ns;
		break;
	default:
		return -1;
	}
	out->ns_per_fault = t;
	out->get_ns = t - in->fixed_ns;
	out->get_share = t > 0 ? out->get_ns / t : 0;
	out->faults_per_sec = t > 0 ? n * 1e9 / t : 0;
	out->life_ns = out->put_ns = out->life_get_share = NAN;
	if (in->teardown_ns >= 0) {
		double z = in->teardown_ns, b = in->put_batch > 1 ? in->put_batch : 1, tz = z;

		if (s->model == ZF_MODEL_SHARED) {
			/*
			 * A put per zapped PMD, B of them in a row by one CPU for
			 * each move of the line: U each and a B-th of a trip,
			 * or, queued, n of those per teardown of each task's.
			 */
			double put_free = in->get_ns + (n > 1 ? (double)(n - 1) / n : 0) * h / b;
			double put_queue = in->get_ns + h / b;

			tz = z + put_free > n * put_queue ? z + put_free : n * put_queue;
		} else if (s->model == ZF_MODEL_PER_MM) {
			/* one put per mm, at its exit */
			tz = z + mms * free_d / ((double)n * (in->faults_per_pass ? in->faults_per_pass : 1));
		}
		out->life_ns = t + tz;
		out->put_ns = tz - z;
		out->life_get_share = out->life_ns > 0 ? out->get_ns / out->life_ns : 0;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* The charts and report.html of a results folder: see report.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/strategy.h"
#include "../analyze/stats.h"
#include "buf.h"
#include "chartstyle.h"
#include "cols.h"
#include "csv.h"
#include "json.h"
#include "report.h"
#include "results.h"
#include "sysinfo.h"

const char *const zf_charts[] = {
	"scaling", "cost", "speedup", "breakdown", "counters", "placement", "fairness", "kernel",
	"kernels", "history", "c2c", "lifecycle", "zeroout",
	NULL,
};

static bool is_dir_with(const char *dir, const char *file)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, R_OK) == 0;
}

int zf_plots_dir(char *out, size_t len)
{
	/* ../../plots: the sanitizer builds, build/asan/hzfbench and the others */
	static const char *const beside[] = { "../plots", "../../plots", "../share/hzfbench/plots" };
	const char *env = getenv("HZF_PLOTS");
	char exe[PATH_MAX];
	size_t i;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return is_dir_with(out, "style.gp") ? 0 : -ENOENT;
	}
	if (zf_exe_dir(exe, sizeof(exe)))
		return -ENOENT;
	for (i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		snprintf(out, len, "%s/%s", exe, beside[i]);
		if (is_dir_with(out, "style.gp"))
			return 0;
	}
	return -ENOENT;
}

/* gnuplot -c SCRIPT DIR, its stderr into msg; the exit status, or -errno */
static int run_gnuplot(const char *script, const char *dir, struct zf_buf *msg)
{
	int fds[2], status;
	char chunk[512];
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(fds[1], STDERR_FILENO);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		close(fds[0]);
		execlp("gnuplot", "gnuplot", "-c", script, dir, (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);	/* the shell's: not found, not runnable */
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
		zf_buf_printf(msg, "%.*s", (int)n, chunk);
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void html_text(struct zf_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': zf_buf_printf(b, "&lt;"); break;
		case '>': zf_buf_printf(b, "&gt;"); break;
		case '&': zf_buf_printf(b, "&amp;"); break;
		case '"': zf_buf_printf(b, "&quot;"); break;
		default: zf_buf_printf(b, "%c", *s);
		}
	}
}

/*
 * The value of strategy's row of fault and kind at tasks, placed compact
 * (the headline quotes sweep's default placement, whatever else was run;
 * any step and faults per pass: one such row is expected); NAN if none
 */
static double value_at(const struct zf_csv *c, const char *strategy, const char *fault,
		       const char *kind, long tasks, const char *col)
{
	struct zf_config_key want = { .strategy = strategy, .fault = fault, .task_kind = kind,
		.tasks = (uint64_t)tasks, .placement = "compact", .step = ZF_KEY_ANY,
		.faults_per_pass = ZF_KEY_ANY };
	int v = zf_csv_col(c, col);
	struct zf_key_cols kc;
	const char *missing;
	size_t i;

	zf_key_cols_find(c, &kc, &missing);
	for (i = 0; v >= 0 && i < c->nrows; i++)
		if (zf_key_matches(c, &kc, i, &want) && *c->rows[i][v])
			return atof(c->rows[i][v]);
	return NAN;
}

static long most_tasks(const struct zf_csv *c, const char *fault, const char *kind)
{
	int f = zf_csv_col(c, "fault"), k = zf_csv_col(c, "task_kind"), t = zf_csv_col(c, "tasks");
	long most = 0;
	size_t i;

	for (i = 0; f >= 0 && k >= 0 && t >= 0 && i < c->nrows; i++)
		if (!strcmp(c->rows[i][f], fault) && !strcmp(c->rows[i][k], kind) &&
		    atol(c->rows[i][t]) > most)
			most = atol(c->rows[i][t]);
	return most;
}

/* a's and b's emulated ns per fault at n tasks of kind are apart: outside the noise (stats.h) */
static bool apart(const struct zf_csv *c, const char *a, const char *b, const char *kind, long n)
{
	return !zf_inside_noise(value_at(c, a, "emulated", kind, n, "ns_per_fault_median"),
				value_at(c, a, "emulated", kind, n, "ns_per_fault_stddev"),
				value_at(c, b, "emulated", kind, n, "ns_per_fault_median"),
				value_at(c, b, "emulated", kind, n, "ns_per_fault_stddev"));
}

/*
 * The first strategy of each model kind held against the first shared
 * counter (persistent and mmflag against global), and that one's get on
 * real faults.
 */
void zf_report_headline(const char *text, char *out, size_t len)
{
	static const char *const kinds[] = { "thread", "process" };
	const char *shared = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_SHARED));
	const char *none = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_UNCOUNTED));
	const char *per_mm = zf_strategy_name(zf_strategy_first_of(ZF_MODEL_PER_MM));
	struct zf_csv c;
	size_t line, i, used = 0;

	out[0] = '\0';
	if (zf_csv_parse(text, &c, &line))
		return;
	for (i = 0; i < 2; i++) {
		long n = most_tasks(&c, "emulated", kinds[i]);
		double g = value_at(&c, shared, "emulated", kinds[i], n, "faults_per_sec_median");
		double p = value_at(&c, none, "emulated", kinds[i], n, "faults_per_sec_median");
		double m = value_at(&c, per_mm, "emulated", kinds[i], n, "faults_per_sec_median");

		if (!n || isnan(g) || g <= 0 || (isnan(p) && isnan(m)))
			continue;
		used += snprintf(out + used, used < len ? len - used : 0,
				 "%sAt %ld %s task%s (emulated faults), ", used ? " " : "", n, kinds[i],
				 n == 1 ? "" : "s");
		if (!isnan(p))
			used += snprintf(out + used, used < len ? len - used : 0, "%s is ", none);
		if (!isnan(p) && apart(&c, none, shared, kinds[i], n))
			used += snprintf(out + used, used < len ? len - used : 0, "%.1f× %s%s",
					 p / g, shared, isnan(m) ? "." : "; ");
		else if (!isnan(p))
			used += snprintf(out + used, used < len ? len - used : 0,
					 "inside the noise of %s%s", shared, isnan(m) ? "." : "; ");
		if (!isnan(m) && apart(&c, per_mm, shared, kinds[i], n))
			used += snprintf(out + used, used < len ? len - used : 0, "%s %.1f×.",
					 per_mm, m / g);
		else if (!isnan(m))
			used += snprintf(out + used, used < len ? len - used : 0,
					 "%s inside the noise of %s.", per_mm, shared);
	}
	for (i = 0; i < 2; i++) {
		long n = most_tasks(&c, "kernel", kinds[i]);
		double share = value_at(&c, shared, "kernel", kinds[i], n, "get_share_of_fault");
		double ns = value_at(&c, shared, "kernel", kinds[i], n, "get_ns_in_fault_median");

		if (!n || isnan(share) || isnan(ns))
			continue;
		used += snprintf(out + used, used < len ? len - used : 0,
				 "%sOn real faults at %ld %s task%s, %s's get is %.1f ns, %.2f%% of the fault.",
				 used ? " " : "", n, kinds[i], n == 1 ? "" : "s", shared, ns, 100 * share);
	}
	zf_csv_free(&c);
}

static const char *const table_cols[] = {
	"strategy", "fault", "task_kind", "tasks", "placement", "ns_per_fault_median",
	"ns_per_fault_min", "ns_per_fault_max", "faults_per_sec_median",
	"teardown_ns_per_fault_median", "fairness_min_max", "get_share_of_fault", "get_share",
};

static void key_table(struct zf_buf *b, const char *text)
{
	struct zf_csv c;
	size_t line, i, j, n = sizeof(table_cols) / sizeof(table_cols[0]);
	int col[sizeof(table_cols) / sizeof(table_cols[0])];

	if (zf_csv_parse(text, &c, &line)) {
		zf_buf_printf(b, "<p>summary.csv could not be read.</p>\n");
		return;
	}
	zf_buf_printf(b, "<table>\n<tr>");
	for (j = 0; j < n; j++) {
		col[j] = zf_csv_col(&c, table_cols[j]);
		if (col[j] >= 0)
			zf_buf_printf(b, "<th>%s</th>", table_cols[j]);
	}
	zf_buf_printf(b, "</tr>\n");
	for (i = 0; i < c.nrows; i++) {
		zf_buf_printf(b, "<tr>");
		for (j = 0; j < n; j++) {
			if (col[j] < 0)
				continue;
			zf_buf_printf(b, j < 5 ? "<td>" : "<td class=n>");
			html_text(b, c.rows[i][col[j]]);
			zf_buf_printf(b, "</td>");
		}
		zf_buf_printf(b, "</tr>\n");
	}
	zf_buf_printf(b, "</table>\n");
	zf_csv_free(&c);
}

/* the row of c with the same configuration as row r of m, or -1 */
static long same_config(const struct zf_csv *c, const struct zf_csv *m, size_t r)
{
	static const char *const key[] = { "strategy", "fault", "task_kind", "tasks", "placement",
					   "step" };
	size_t i, k;

	for (i = 0; i < c->nrows; i++) {
		for (k = 0; k < sizeof(key) / sizeof(key[0]); k++) {
			int a = zf_csv_col(c, key[k]), b = zf_csv_col(m, key[k]);

			if (a < 0 || b < 0 || strcmp(c->rows[i][a], m->rows[r][b]))
				break;
		}
		if (k == sizeof(key) / sizeof(key[0]))
			return (long)i;
	}
	return -1;
}

/* model.csv beside summary.csv: each prediction with its measurement */
static void model_table(struct zf_buf *b, const char *summary, const char *model,
			const char *model_json)
{
	struct zf_csv c, m;
	size_t line, r;
	char source[512] = "";
	int ns_c, ns_m, sd_c, sd_m, sh_m, tag_m;

	if (zf_csv_parse(summary, &c, &line))
		return;
	if (zf_csv_parse(model, &m, &line)) {
		zf_buf_printf(b, "<p>model.csv could not be read.</p>\n");
		zf_csv_free(&c);
		return;
	}
	ns_c = zf_csv_col(&c, "ns_per_fault_median");
	ns_m = zf_csv_col(&m, "ns_per_fault_median");
	sd_c = zf_csv_col(&c, "ns_per_fault_stddev");
	sd_m = zf_csv_col(&m, "ns_per_fault_stddev");	/* the prediction's, from its F */
	sh_m = zf_csv_col(&m, "get_share_of_fault");
	tag_m = zf_csv_col(&m, "tag");	/* model.csv: why a prediction has no ratio */
	if (model_json)
		zf_json_get(model_json, "handoff", source, sizeof(source));
	zf_buf_printf(b, "<p>Predicted by <code>hzfbench model</code> (docs/model.md) from ");
	html_text(b, source[0] ? source : "model.csv");
	zf_buf_printf(b, "; the charts draw these as dashed lines.</p>\n<table>\n<tr><th>strategy</th>"
		      "<th>fault</th><th>task_kind</th><th>tasks</th><th>placement</th>"
		      "<th>measured ns/fault</th><th>predicted ns/fault</th><th>measured/predicted</th>"
		      "<th>predicted get share</th></tr>\n");
	for (r = 0; ns_m >= 0 && ns_c >= 0 && r < m.nrows; r++) {
		long i = same_config(&c, &m, r);
		double meas, pred = atof(m.rows[r][ns_m]);
		int k;

		if (i < 0)
			continue;
		meas = atof(c.rows[i][ns_c]);
		zf_buf_printf(b, "<tr>");
		for (k = 0; k < 5; k++) {
			zf_buf_printf(b, "<td>");
			html_text(b, m.rows[r][k]);
			zf_buf_printf(b, "</td>");
		}
		zf_buf_printf(b, "<td class=n>%.3f</td><td class=n>%.3f</td>", meas, pred);
		/* a tag is why no ratio: outside the model, or its domain not known */
		if (tag_m >= 0 && m.rows[r][tag_m][0]) {
			zf_buf_printf(b, "<td>");
			html_text(b, m.rows[r][tag_m]);
			zf_buf_printf(b, "</td>");
		} else if (sd_c >= 0 && sd_m >= 0 && c.rows[i][sd_c][0] &&
			   zf_inside_noise(meas, atof(c.rows[i][sd_c]), pred, atof(m.rows[r][sd_m]))) {
			zf_buf_printf(b, "<td>inside the noise</td>");
		} else if (pred > 0) {
			zf_buf_printf(b, "<td class=n>%.2f×</td>", meas / pred);
		} else {
			zf_buf_printf(b, "<td>no prediction to divide by</td>");
		}
		zf_buf_printf(b, "<td class=n>%.1f%%</td></tr>\n",
			      sh_m >= 0 ? 100 * atof(m.rows[r][sh_m]) : 0);
	}
	zf_buf_printf(b, "</table>\n");
	zf_csv_free(&c);
	zf_csv_free(&m);
}

/* the chart's SVG from its <svg> on, or NULL */
static char *svg_of(const char *dir, const char *chart)
{
	char path[PATH_MAX + 64], *text, *svg;

	snprintf(path, sizeof(path), "%s/plots/%s.svg", dir, chart);
	if (zf_read_file_alloc(path, &text, NULL))
		return NULL;
	svg = strstr(text, "<svg");
	if (!svg) {
		free(text);
		return NULL;
	}
	memmove(text, svg, strlen(svg) + 1);
	return text;
}

static char *read_all(const char *dir, const char *name)
{
	char path[PATH_MAX + 32], *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return zf_read_file_alloc(path, &text, NULL) ? NULL : text;
}

static void meta_line(struct zf_buf *b, const char *meta, const char *label, const char *path)
{
	char v[512];

	if (!meta || zf_json_get(meta, path, v, sizeof(v)) || !strcmp(v, "null"))
		return;
	zf_buf_printf(b, "<tr><th>%s</th><td>", label);
	html_text(b, v);
	zf_buf_printf(b, "</td></tr>\n");
}

/* what the report says of the machine: label, meta.json path */
static const char *const meta_rows[][2] = {
	{ "host", "host" }, { "CPU", "cpu_model" }, { "online CPUs", "online_cpus" },
	{ "kernel", "kernel_release" }, { "THP enabled", "thp.enabled" },
	{ "use_zero_page", "thp.use_zero_page" },
	{ "PERSISTENT_HUGE_ZERO_FOLIO", "config_persistent_huge_zero_folio" },
	{ "the kernel counts as", "kernel_strategy" },
	{ "measured in a qemu guest under", "virtualized" }, { "kernels", "kernels_said" },
	{ "started", "start_time" },
	{ "ended", "end_time" }, { "complete", "complete" }, { "hzfbench", "git_revision" },
};

static const char css[] =
	"body{font-family:sans-serif;max-width:1700px;margin:2em auto;color:#222}"
	"h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em}"
	"table{border-collapse:collapse;font-size:.9em}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".headline{font-size:1.2em;background:#f4f4f4;padding:.8em 1em;border-left:4px solid #D55E00}"
	"figure{margin:1.5em 0}figure svg{width:100%;height:auto}figcaption{font-size:.9em;color:#555}"
	".skipped{color:#777;font-style:italic}";

int zf_report(const char *dir)
{
	char plots[PATH_MAX], script[PATH_MAX + 64], headline[1024];
	char *summary, *meta, *model, *model_json, why[PATH_MAX + 128];
	struct zf_buf html = { 0 }, skipped = { 0 };
	bool zeroout_only;	/* a folder of hzfbench zeroout: its chart alone */
	int ret = 0, i;

	if (zf_results_complete(dir, why, sizeof(why))) {
		fprintf(stderr, "hzfbench: report: %s\n", why);
		return 2;
	}
	summary = read_all(dir, "summary.csv");
	meta = read_all(dir, "meta.json");
	model = read_all(dir, "model.csv");
	model_json = read_all(dir, "model.json");
	zeroout_only = !summary;	/* its table is zeroout.csv, read above */
	if (zf_plots_dir(plots, sizeof(plots))) {
		fprintf(stderr, "hzfbench: report: the gnuplot scripts (plots/) are not beside the binary; set HZF_PLOTS\n");
		ret = 1;
		goto out;
	}
	/* a folder from before strategies.csv, or not from a sweep: the table's */
	if (zf_chart_styles_write(dir, true, "report")) {
		ret = 1;
		goto out;
	}
	zf_buf_printf(&html, "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
		      "<title>hzfbench report</title><style>%s</style></head><body>\n", css);
	zf_buf_printf(&html, "<h1>hzfbench: what it costs many CPUs to share one page of zeroes</h1>\n");
	headline[0] = '\0';
	if (!zeroout_only)
		zf_report_headline(summary, headline, sizeof(headline));
	if (headline[0]) {
		zf_buf_printf(&html, "<p class=headline>");
		html_text(&html, headline);
		zf_buf_printf(&html, "</p>\n");
	}
	zf_buf_printf(&html, "<table>\n");
	for (i = 0; i < (int)(sizeof(meta_rows) / sizeof(meta_rows[0])); i++)
		meta_line(&html, meta, meta_rows[i][0], meta_rows[i][1]);
	zf_buf_printf(&html, "</table>\n");
	if (!zeroout_only) {
		zf_buf_printf(&html, "<h2>summary.csv</h2>\n");
		key_table(&html, summary);
	}
	if (model) {
		zf_buf_printf(&html, "<h2>Measured and predicted</h2>\n");
		model_table(&html, summary, model, model_json);
	}
	{	/* ./run.sh puts its life-cycle sweep in a folder of its own, reported there */
		char sub[PATH_MAX + 32];

		snprintf(sub, sizeof(sub), "%s/lifecycle/report.html", dir);
		if (!access(sub, R_OK))
			zf_buf_printf(&html, "<p>The folio's life cycle under memory pressure "
				      "(<code>--workload lifecycle</code>): "
				      "<a href=\"lifecycle/report.html\">lifecycle/report.html</a>.</p>\n");
		snprintf(sub, sizeof(sub), "%s/stress/report.html", dir);
		if (!access(sub, R_OK))
			zf_buf_printf(&html, "<p>The stress beside this real-fault regime: the same "
				      "strategies at <code>--fault-ns 0</code>, no work between two gets, "
				      "where a CPU keeps <code>global</code>'s line for many of them and "
				      "the model does not hold: <a href=\"stress/report.html\">"
				      "stress/report.html</a>.</p>\n");
	}
	for (i = 0; zf_charts[i]; i++) {
		struct zf_buf msg = { 0 };
		char *svg;
		int rc;

		if (zeroout_only && strcmp(zf_charts[i], "zeroout"))
			continue;
		snprintf(script, sizeof(script), "%s/%s.gp", plots, zf_charts[i]);
		rc = run_gnuplot(script, dir, &msg);
		if (rc == 127) {
			/* a bare machine (make dist's bundle): the tables without the charts */
			fprintf(stderr, "hzfbench: report: gnuplot: not installed (Debian: gnuplot-nox): "
				"charts skipped, report.html has the tables\n");
			zf_buf_printf(&skipped, "<li>every chart: gnuplot is not installed "
				      "(Debian: gnuplot-nox)</li>\n");
			zf_buf_free(&msg);
			break;
		}
		if (rc == 126 || rc < 0) {
			fprintf(stderr, "hzfbench: report: cannot run gnuplot (Debian: gnuplot-nox)\n");
			zf_buf_free(&msg);
			ret = 1;
			goto out;
		}
		if (rc) {
			fprintf(stderr, "hzfbench: report: %s: gnuplot failed (%d): %s", zf_charts[i], rc,
				msg.text ? msg.text : "\n");
			ret = 1;
		}
		if (msg.text && strstr(msg.text, ": skipped: ")) {
			fprintf(stderr, "%s", msg.text);
			zf_buf_printf(&skipped, "<li>");
			html_text(&skipped, msg.text);
			zf_buf_printf(&skipped, "</li>\n");
		}
		zf_buf_free(&msg);
		svg = svg_of(dir, zf_charts[i]);
		if (!svg)
			continue;
		zf_buf_printf(&html, "<h2>%s</h2>\n<figure>%s<figcaption>plots/%s.png, .svg, .pdf"
			      "</figcaption></figure>\n", zf_charts[i], svg, zf_charts[i]);
		free(svg);
	}
	if (skipped.text)
		zf_buf_printf(&html, "<h2>Charts left out</h2>\n<ul class=skipped>\n%s</ul>\n",
			      skipped.text);
	zf_buf_printf(&html, "</body></html>\n");
	if (zf_buf_write(dir, "report.html", &html, "report")) {
		ret = 1;
		goto out;
	}
	printf("report: %s/report.html\n", dir);
out:
	zf_buf_free(&html);
	zf_buf_free(&skipped);
	free(summary);
	free(meta);
	free(model);
	free(model_json);
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CI history: one row per configuration per run appended to a CSV file
 * (time, git_revision, host, kernel_release, the configuration's key, reps,
 * ns_per_fault_median and _stddev, faults_per_sec_median,
 * teardown_ns_per_fault_median, fairness_min_max), under an exclusive flock(2), in one write, so that
 * runs appending at once never interleave their rows.
 */
#ifndef HZF_HISTORY_H
#define HZF_HISTORY_H

/*
 * DIR's summary.csv rows onto file (made, with a header, when new); 0 or
 * non-zero, said. A file that is not a regular one, or whose first line is
 * not the header, is refused (2) and left as it was; a last line without
 * its newline is given one first.
 */
int zf_history_append(const char *file, const char *dir);

#endif

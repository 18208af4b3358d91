/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ctrl-C, SIGTERM and SIGHUP during a sweep: THP's sysfs settings put back
 * (thpset.c), one line saying which results folder was left incomplete
 * (its meta.json says "complete": false from the start), and death by the
 * same signal, so the caller sees 128 + N. Forked tasks only die. A signal
 * the caller ignored (nohup, a background job) stays ignored.
 */
#ifndef HZF_INTERRUPT_H
#define HZF_INTERRUPT_H

/* file: the one whose "complete": false the line names (meta.json, vm.json) */
void zf_interrupt_catch(const char *dir, const char *file);
/* a scratch file or (emptied) folder of ours to remove at such a signal; 8 at most */
void zf_interrupt_scratch(const char *path);

#endif

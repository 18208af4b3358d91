// SPDX-License-Identifier: GPL-2.0
/*
 * plainfault: the seed's read-fault pattern as plain C, the yardstick for
 * hzfbench's own kernel-fault loop (tools/vs-plain.sh). N processes each map
 * SIZE private anonymous bytes (MAP_NORESERVE, MADV_HUGEPAGE), read one byte
 * every STEP, unmap, PASSES times after one untimed warm-up pass; only the
 * reads are timed. Prints the slowest process's ns per fault.
 *
 * usage: plainfault NPROC SIZE_MB STEP_KB PASSES
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int nproc, i, go[2], res[2];
	size_t size, step, off, faults_per_pass;
	long passes, p;
	double worst = 0, ns;

	if (argc != 5 || (nproc = atoi(argv[1])) < 1 || (passes = atol(argv[4])) < 1) {
		fprintf(stderr, "usage: plainfault NPROC SIZE_MB STEP_KB PASSES\n");
		return 2;
	}
	size = strtoul(argv[2], NULL, 0) << 20;
	step = strtoul(argv[3], NULL, 0) << 10;
	if (!size || !step || step > size || pipe(go) || pipe(res))
		return 2;
	faults_per_pass = size / step;
	for (i = 0; i < nproc; i++) {
		if (fork())
			continue;
		unsigned long sum = 0;
		double t = 0, t0;
		char c;

		if (read(go[0], &c, 1) != 1)	/* everyone starts together */
			_exit(1);
		for (p = -1; p < passes; p++) {	/* pass -1 warms up, untimed */
			volatile char *r = mmap(NULL, size, PROT_READ,
						MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

			if (r == MAP_FAILED || madvise((void *)r, size, MADV_HUGEPAGE))
				_exit(1);
			t0 = now();
			for (off = 0; off < size; off += step)
				sum += r[off];
			if (p >= 0)
				t += now() - t0;
			munmap((void *)r, size);
		}
		ns = sum ? -1 : t / (double)(passes * faults_per_pass);	/* a non-zero byte: wrong */
		if (write(res[1], &ns, sizeof(ns)) != sizeof(ns))
			_exit(1);
		_exit(0);
	}
	for (i = 0; i < nproc; i++)
		if (write(go[1], "g", 1) != 1)
			return 1;
	for (i = 0; i < nproc; i++) {
		if (read(res[0], &ns, sizeof(ns)) != sizeof(ns) || ns < 0)
			return 1;
		worst = ns > worst ? ns : worst;
	}
	while (wait(NULL) > 0)
		;
	printf("%.1f\n", worst);
	return 0;
}

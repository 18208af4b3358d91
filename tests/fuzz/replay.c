// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for the fuzz targets without libFuzzer: each argument is a file
 * (or a folder of files) fed once to LLVMFuzzerTestOneInput. make test
 * replays the kept corpora and crashers with it, and AFL++ can drive it
 * (afl-fuzz -i tests/fuzz/corpus/csv -o out -- build/fuzz/afl-csv @@).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return 1;
	}
	do {
		if (size == cap) {
			unsigned char *grown = realloc(data, cap = cap ? cap * 2 : 4096);

			if (!grown) {
				free(data);
				fclose(f);
				return 1;
			}
			data = grown;
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int i, err = 0, files = 0;

	for (i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		char path[4096];

		if (!d) {
			err |= one_file(argv[i]);
			files++;
			continue;
		}
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			err |= one_file(path);
			files++;
		}
		closedir(d);
	}
	printf("replayed %d inputs\n", files);
	return err;
}

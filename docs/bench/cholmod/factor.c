/*
 * factor: CHOLMOD's sparse Cholesky factorisation of a grounded graph
 * Laplacian, the peer tool of the rows of the table "exact" in
 * docs/benchmarks.md (run through cholmod.sh in this folder).
 *
 * It reads FILE as written by internal/graphtest.WriteForSciPy (per edge
 * int32 u, int32 v, float64 w, little endian), builds the Laplacian
 * L = D - W of the graph on n = max(u, v) + 1 nodes with the row and
 * column of node n-1 removed (the grounded Laplacian, positive definite
 * when the graph is connected), and then COUNT times runs cholmod_analyze
 * (fill-reducing ordering, elimination tree, the factor's pattern) and
 * cholmod_factorize (numeric factorisation), timing the two together. Per
 * run it prints one line on stdout holding wall=<seconds>s and
 * cpu=<seconds>s (process CPU time, all threads of the BLAS included);
 * on stderr the instance, the ordering chosen, whether the factor is
 * supernodal, nnz(L) and CHOLMOD's flop count.
 *
 * usage: factor [-count N] [-ordering amd|metis|nesdis|auto] FILE
 *   -count N      runs [1]
 *   -ordering O   the fill-reducing ordering: amd (the default), metis,
 *                 nesdis (CHOLMOD's nested dissection) or auto
 *                 (CHOLMOD's default: AMD, then METIS if AMD's fill is
 *                 high, keeping the better)
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cholmod.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "factor.c reads little-endian records into native integers and doubles"
#endif

enum { RECORD = 16 }; /* int32 u, int32 v, float64 w */

struct edges {
	int n;      /* nodes */
	size_t m;   /* edges */
	int32_t *u, *v;
	double *w;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "factor: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

/* readEdges reads the binary edge file at path into e, checking node
   numbers and weights. */
static void readEdges(const char *path, struct edges *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("%s", strerror(errno));
	if (fseek(f, 0, SEEK_END) != 0)
		die("cannot seek %s", path);
	long size = ftell(f);
	rewind(f);
	if (size <= 0 || size % RECORD != 0)
		die("%s: size not a positive multiple of 16 bytes (int32 u, int32 v, float64 w)", path);
	e->m = (size_t)size / RECORD;
	unsigned char *buf = malloc((size_t)size);
	e->u = malloc(e->m * sizeof *e->u);
	e->v = malloc(e->m * sizeof *e->v);
	e->w = malloc(e->m * sizeof *e->w);
	if (!buf || !e->u || !e->v || !e->w)
		die("out of memory reading %s", path);
	if (fread(buf, 1, (size_t)size, f) != (size_t)size)
		die("short read of %s", path);
	fclose(f);
	int32_t top = -1;
	for (size_t k = 0; k < e->m; k++) {
		memcpy(&e->u[k], buf + k * RECORD, 4);
		memcpy(&e->v[k], buf + k * RECORD + 4, 4);
		memcpy(&e->w[k], buf + k * RECORD + 8, 8);
		if (e->u[k] < 0 || e->v[k] < 0)
			die("%s: negative node number", path);
		if (!(e->w[k] > 0) || !isfinite(e->w[k]))
			die("%s: a weight is not positive and finite", path);
		if (e->u[k] > top)
			top = e->u[k];
		if (e->v[k] > top)
			top = e->v[k];
	}
	free(buf);
	if (top < 1)
		die("%s: fewer than two nodes", path);
	e->n = top + 1;
}

/* grounded returns the lower triangle of the Laplacian of e without node
   n-1, as a CHOLMOD sparse matrix with stype -1 (duplicates summed). */
static cholmod_sparse *grounded(const struct edges *e, cholmod_common *c)
{
	int nn = e->n - 1;
	cholmod_triplet *t = cholmod_allocate_triplet(nn, nn, e->m + nn, -1, CHOLMOD_REAL, c);
	double *deg = calloc(e->n, sizeof *deg);
	if (!t || !deg)
		die("out of memory building the %s", "Laplacian");
	int *ti = t->i, *tj = t->j;
	double *tx = t->x;
	size_t k = 0;
	for (size_t q = 0; q < e->m; q++) {
		int a = e->u[q], b = e->v[q];
		if (a == b)
			continue; /* a self-loop adds nothing to L */
		deg[a] += e->w[q];
		deg[b] += e->w[q];
		if (a < nn && b < nn) {
			ti[k] = a > b ? a : b;
			tj[k] = a > b ? b : a;
			tx[k] = -e->w[q];
			k++;
		}
	}
	for (int i = 0; i < nn; i++) {
		ti[k] = tj[k] = i;
		tx[k] = deg[i];
		k++;
	}
	t->nnz = k;
	cholmod_sparse *a = cholmod_triplet_to_sparse(t, 0, c);
	if (!a)
		die("cholmod_triplet_to_sparse failed (%s)", "status in CHOLMOD's common");
	cholmod_free_triplet(&t, c);
	free(deg);
	return a;
}

static void ordering(const char *name, cholmod_common *c)
{
	if (!strcmp(name, "auto"))
		return; /* CHOLMOD's default strategy */
	c->nmethods = 1;
	if (!strcmp(name, "amd"))
		c->method[0].ordering = CHOLMOD_AMD;
	else if (!strcmp(name, "metis"))
		c->method[0].ordering = CHOLMOD_METIS;
	else if (!strcmp(name, "nesdis"))
		c->method[0].ordering = CHOLMOD_NESDIS;
	else
		die("-ordering %s: want amd, metis, nesdis or auto", name);
}

static double seconds(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const char *ordName(int o)
{
	switch (o) {
	case CHOLMOD_NATURAL: return "natural";
	case CHOLMOD_AMD: return "amd";
	case CHOLMOD_METIS: return "metis";
	case CHOLMOD_NESDIS: return "nesdis";
	case CHOLMOD_COLAMD: return "colamd";
	default: return "other";
	}
}

int main(int argc, char **argv)
{
	int count = 1;
	const char *ord = "amd", *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-count") && i + 1 < argc)
			count = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-ordering") && i + 1 < argc)
			ord = argv[++i];
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			die("usage: factor [-count N] [-ordering amd|metis|nesdis|auto] FILE (at %s)", argv[i]);
	}
	if (!path || count < 1)
		die("usage: factor [-count N >= 1] [-ordering amd|metis|nesdis|auto] FILE%s", "");

	struct edges e;
	readEdges(path, &e);
	cholmod_common c;
	cholmod_start(&c);
	ordering(ord, &c);
	cholmod_sparse *a = grounded(&e, &c);
	fprintf(stderr, "factor: %s: n = %d nodes, %zu edges, grounded at node %d; CHOLMOD %d.%d.%d\n",
		path, e.n, e.m, e.n - 1, CHOLMOD_MAIN_VERSION, CHOLMOD_SUB_VERSION, CHOLMOD_SUBSUB_VERSION);
	for (int r = 0; r < count; r++) {
		double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
		cholmod_factor *l = cholmod_analyze(a, &c);
		if (!l || c.status != CHOLMOD_OK)
			die("cholmod_analyze failed%s", "");
		cholmod_factorize(a, l, &c);
		double wall = seconds(CLOCK_MONOTONIC) - w0, cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
		if (c.status != CHOLMOD_OK || l->minor != l->n)
			die("cholmod_factorize: the grounded Laplacian is not positive definite (disconnected graph?)%s", "");
		if (r == 0)
			fprintf(stderr, "factor: ordering %s, %s, nnz(L) = %.0f (%.2f per node), %.3g flops\n",
				ordName(c.method[c.selected].ordering), l->is_super ? "supernodal" : "simplicial",
				c.lnz, c.lnz / (e.n - 1), c.fl);
		printf("wall=%.4fs cpu=%.4fs nnzL=%.0f flops=%.3g\n", wall, cpu, c.lnz, c.fl);
		fflush(stdout);
		cholmod_free_factor(&l, &c);
	}
	cholmod_free_sparse(&a, &c);
	cholmod_finish(&c);
	return 0;
}

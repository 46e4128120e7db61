/*
 * dra-gen-fleet: write a synthetic GPU cluster as one Kubernetes List.
 *
 * The program works in two phases.  First it builds a small model of the
 * fleet: nodes, the per-GPU allocation state (memory-slice bitmap, remaining
 * counters, static partitions in use), the namespaces and the claims with
 * their allocation.  The model is O(nodes * GPUs + claims); devices are never
 * stored.  Then it streams the objects one by one through a small YAML/JSON
 * emitter (struct gen_out) that keeps only a stack of open containers and an
 * output buffer, so a fleet of several hundred MB is written in one pass.
 *
 * Device shapes follow the NVIDIA DRA driver gpu.nvidia.com as described in
 * docs/NVIDIA-MIG.md sections 1 and 2 (H100 80GB HBM3), object shapes follow
 * resource.k8s.io/v1 and core/v1.  Map keys are written in the sorted order
 * that `kubectl get -o yaml` prints.
 *
 * --apply writes the same cluster as the objects a user creates, for a
 * real API server: no server fields (uid, resourceVersion, timestamps,
 * generation, finalizers, ownerReferences), no status except the Nodes'
 * (a loader writes it through the status subresource), no allocations,
 * no bindings, and no claims that the resourceclaim controller makes from
 * templates; pods run pause.  gen_meta and the gen_emit_* functions skip
 * those parts when g->apply is set.
 *
 * Everything is deterministic for a given --seed: object UIDs and GPU UUIDs
 * are hashes of (seed, kind, namespace, name), the claim mix comes from a
 * splitmix64 stream.
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_MAXDEPTH	32
#define GEN_BUFSZ	(256 * 1024)
#define GEN_MAXGPU	16
#define GEN_MAXRES	4
#define GEN_NSLICE	8	/* memory slices per GPU (7/8 family) */
#define GEN_MAXNODES	10000
#define GEN_MAXNS	1000
#define GEN_MAXCLAIMS	1000000

enum gen_ret {
	GEN_OK = 0,
	GEN_E_IO = 1,
	GEN_E_USAGE = 2
};

/* ------------------------------------------------------------------ */
/* Streaming YAML / JSON emitter. */

enum {
	GEN_MAP = 1,
	GEN_LIST
};

/* Where the YAML cursor stands. */
enum {
	GEN_POS_LINE = 0,	/* at the start of a line */
	GEN_POS_KEY,		/* right after "key:" */
	GEN_POS_DASH		/* right after "- " */
};

struct gen_frame {
	int	type;
	int	indent;		/* YAML: column of the keys or dashes */
	long	n;		/* children written so far */
};

struct gen_out {
	FILE			*fp;
	int			 json;
	int			 pos;
	int			 depth;
	int			 err;
	struct gen_frame	 st[GEN_MAXDEPTH];
	size_t			 len;
	char			 buf[GEN_BUFSZ];
};

/* ------------------------------------------------------------------ */
/* GPU model: H100 80GB HBM3 (NVIDIA-MIG.md 1.5, 1.7, 2.1, 2.2). */

enum {
	CTR_SM = 0,
	CTR_CE,
	CTR_DEC,
	CTR_ENC,
	CTR_JPEG,
	CTR_OFA,
	CTR_MEM,	/* MiB */
	GEN_NCTR
};

/* Profile indexes; the table is in device-name order. */
enum {
	P_1G10 = 0,
	P_1G10ME,
	P_1G20,
	P_2G20,
	P_3G40,
	P_4G40,
	P_7G80,
	GEN_NPROF
};

struct gen_profile {
	const char	*name;		/* "1g.10gb+me" */
	const char	*dname;		/* "1g10gb-me", as in device names */
	int		 giid;		/* GPU instance profile ID */
	int		 size;		/* memory slices */
	unsigned	 starts;	/* bit k: a placement may start at k */
	int		 ctr[GEN_NCTR];
	int		 weight;	/* share of MIG claims, per cent */
	int		 is_static;	/* offered by one of the static mixes */
};

static const struct gen_profile gen_prof[GEN_NPROF] = {
	{ "1g.10gb", "1g10gb", 19, 1, 0x7f,
	    { 16, 1, 1, 0, 1, 0, 9984 }, 33, 1 },
	{ "1g.10gb+me", "1g10gb-me", 20, 1, 0x7f,
	    { 16, 1, 1, 0, 1, 1, 9984 }, 2, 0 },
	{ "1g.20gb", "1g20gb", 15, 2, 0x55,
	    { 26, 1, 1, 0, 1, 0, 20096 }, 15, 1 },
	{ "2g.20gb", "2g20gb", 14, 2, 0x15,
	    { 32, 2, 2, 0, 2, 0, 20096 }, 20, 1 },
	{ "3g.40gb", "3g40gb", 9, 4, 0x11,
	    { 60, 3, 3, 0, 3, 0, 40448 }, 18, 1 },
	{ "4g.40gb", "4g40gb", 5, 4, 0x01,
	    { 64, 4, 4, 0, 4, 0, 40448 }, 7, 1 },
	{ "7g.80gb", "7g80gb", 0, 8, 0x01,
	    { 132, 8, 7, 0, 7, 1, 81152 }, 5, 0 }
};

/* Per-GPU counter set: the per-dimension maximum, i.e. the 7g values. */
static const int gen_total[GEN_NCTR] = { 132, 8, 7, 0, 7, 1, 81152 };

#define GEN_PRODUCT	"NVIDIA H100 80GB HBM3"
#define GEN_PRODLABEL	"NVIDIA-H100-80GB-HBM3"
#define GEN_ARCH	"Hopper"
#define GEN_CC		"9.0.0"
#define GEN_DRIVERVER	"580.95.5"
#define GEN_CUDAVER	"13.0.0"
#define GEN_FULLMEM	"81559Mi"	/* NVML total memory, legacy path */
#define GEN_DRIVER	"gpu.nvidia.com"
#define GEN_NICDRIVER	"nic.example.com"
#define GEN_APPLY_IMAGE	"registry.k8s.io/pause:3.10"	/* --apply pods */

/* Static MIG: fixed partitionings, parts in device-name order. */
struct gen_part {
	int	prof;
	int	start;
};

struct gen_mix {
	int		n;
	struct gen_part	part[GEN_NSLICE];
};

static const struct gen_mix gen_mixes[] = {
	/* 3g.40gb + 2g.20gb + 2 x 1g.10gb */
	{ 4, { { P_1G10, 2 }, { P_1G10, 3 }, { P_2G20, 0 }, { P_3G40, 4 } } },
	/* 4g.40gb + 3g.40gb */
	{ 2, { { P_3G40, 4 }, { P_4G40, 0 } } },
	/* 7 x 1g.10gb */
	{ 7, { { P_1G10, 0 }, { P_1G10, 1 }, { P_1G10, 2 }, { P_1G10, 3 },
	    { P_1G10, 4 }, { P_1G10, 5 }, { P_1G10, 6 } } },
	/* 3 x 2g.20gb + 1g.20gb */
	{ 4, { { P_1G20, 6 }, { P_2G20, 0 }, { P_2G20, 2 }, { P_2G20, 4 } } },
	/* 2 x 3g.40gb */
	{ 2, { { P_3G40, 0 }, { P_3G40, 4 } } }
};
#define GEN_NMIX	((int)(sizeof(gen_mixes) / sizeof(gen_mixes[0])))

/* PCI buses of an HGX H100 board; the root port is the bus below. */
static const int gen_pcibus[8] = {
	0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb
};

/* ------------------------------------------------------------------ */
/* Fleet model. */

enum {
	L_FULL = 0,
	L_DYN,
	L_STATIC,
	L_MIXED		/* command line only: nodes cycle through the three */
};

static const char *const gen_layout_names[] = {
	"full", "dynamic-mig", "static-mig", "mixed"
};

enum {
	CLS_GPU = 0,
	CLS_MIG,
	CLS_NIC,
	GEN_NCLS
};

static const char *const gen_cls_names[GEN_NCLS] = {
	"gpu.nvidia.com", "mig.nvidia.com", "nic.example.com"
};

struct gen_gpu {
	int		ctr[GEN_NCTR];	/* counters left (dynamic MIG) */
	unsigned char	slices;		/* memory slices in use */
	unsigned char	full;		/* allocated as a whole GPU */
	unsigned char	parts;		/* static: parts of the mix in use */
	unsigned char	tainted;
};

struct gen_node {
	char	name[32];
	int	layout;
	int	gpu0;		/* index of the first GPU in gen.gpus */
	int	npods;		/* pods placed, for pod IPs */
	int	nic;		/* publishes the example NIC slice */
};

struct gen_req {
	const char	*name;
	int		 cls;
	int		 count;
	int		 prof;		/* MIG profile index, -1 if none */
	const char	*profile;	/* MIG profile for the selector */
};

struct gen_res {
	int	req;
	int	cls;
	char	device[48];
};

struct gen_claim {
	int		 ns;
	int		 templ;		/* generated from a template */
	int		 pending;
	int		 node;		/* -1 while pending */
	const char	*workload;
	const char	*image;
	char		 pod[48];
	char		 name[80];
	int		 nreq;
	struct gen_req	 req[2];
	const char	*match_attr;	/* constraint over all requests */
	int		 nres;
	struct gen_res	 res[GEN_MAXRES];
	long long	 created;
};

struct gen_ns {
	char		name[24];
	long		used[GEN_NCLS];	/* devices requested per class */
	long		hard[GEN_NCLS];
	long		nclaims;
	long		hard_claims;
	unsigned	tmpl;		/* bit 0: gpu-template, 1 + p: MIG p */
};

struct gen {
	struct gen_out		*out;
	uint64_t		 seed;
	uint64_t		 rng;
	int			 example;
	int			 apply;		/* --apply: what a user creates */
	int			 nnodes;
	int			 ngpu;		/* per node */
	int			 layout;
	int			 nns;
	long			 nclaims;
	double			 pending;
	long long		 rv;		/* next resourceVersion */
	struct gen_node		*nodes;
	struct gen_gpu		*gpus;
	struct gen_ns		*ns;
	struct gen_claim	*claims;
	int			 order[GEN_MAXGPU];	/* GPUs in name order */
	int			 fail_full;
	int			 fail_prof[GEN_NPROF];
	int			 has_nic;
};

/* 2026-11-20T10:00:00Z */
#define GEN_T0	1795168800LL

static const char *const gen_memslice[GEN_NSLICE] = {
	"memory-slice-0", "memory-slice-1", "memory-slice-2",
	"memory-slice-3", "memory-slice-4", "memory-slice-5",
	"memory-slice-6", "memory-slice-7"
};

static const char *const gen_memslice_legacy[GEN_NSLICE] = {
	"memorySlice0", "memorySlice1", "memorySlice2", "memorySlice3",
	"memorySlice4", "memorySlice5", "memorySlice6", "memorySlice7"
};

/* Workloads: full GPUs train, MIG slices serve. */
struct gen_workload {
	const char	*name;
	const char	*image;
};

static const struct gen_workload gen_train[] = {
	{ "llm-train", "nvcr.io/nvidia/pytorch:25.10-py3" },
	{ "bert-finetune", "nvcr.io/nvidia/pytorch:25.10-py3" },
	{ "resnet-train", "nvcr.io/nvidia/pytorch:25.10-py3" },
	{ "sd-batch",
	    "docker.io/pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime" },
	{ "eval-harness", "nvcr.io/nvidia/pytorch:25.10-py3" }
};

static const struct gen_workload gen_serve[] = {
	{ "vllm-serve", "docker.io/vllm/vllm-openai:v0.11.0" },
	{ "triton-infer", "nvcr.io/nvidia/tritonserver:25.10-py3" },
	{ "jupyter", "quay.io/jupyter/pytorch-notebook:cuda12-2025-11-17" },
	{ "whisper-asr", "ghcr.io/ggml-org/whisper.cpp:main-cuda" },
	{ "rag-embed",
	    "ghcr.io/huggingface/text-embeddings-inference:hopper-1.8" }
};

#define GEN_NTRAIN	((int)(sizeof(gen_train) / sizeof(gen_train[0])))
#define GEN_NSERVE	((int)(sizeof(gen_serve) / sizeof(gen_serve[0])))

/* The --example cluster (see gen_build_example). */
struct gen_exdev {
	int	gpu;
	int	prof;		/* -1: the full GPU */
	int	start;
};

struct gen_exclaim {
	const char		*ns;
	const char		*workload;
	const char		*image;
	const char		*pod;
	const char		*claim;		/* NULL: from a template */
	int			 cls;
	int			 count;
	int			 prof;
	const char		*profile;
	int			 nic;		/* adds a NIC request */
	int			 node;		/* -1: pending */
	int			 ndev;
	struct gen_exdev	 dev[2];
};

static const struct gen_exclaim gen_example[] = {
	{ "team-a", "llama-finetune", "nvcr.io/nvidia/pytorch:25.10-py3",
	    "llama-finetune-0", NULL, CLS_GPU, 1, -1, NULL, 0,
	    0, 1, { { 0, -1, 0 } } },
	{ "team-a", "ddp-trainer", "nvcr.io/nvidia/pytorch:25.10-py3",
	    "ddp-trainer-0", "ddp-trainer-0-gpus", CLS_GPU, 2, -1, NULL, 0,
	    0, 2, { { 1, -1, 0 }, { 2, -1, 0 } } },
	{ "team-b", "vllm-serve", "docker.io/vllm/vllm-openai:v0.11.0",
	    "vllm-serve-0", "vllm-serve-0-gpu", CLS_MIG, 1, P_3G40, "3g.40gb",
	    0, 1, 1, { { 0, P_3G40, 0 } } },
	{ "team-c", "triton-infer", "nvcr.io/nvidia/tritonserver:25.10-py3",
	    "triton-infer-0", NULL, CLS_MIG, 1, P_2G20, "2g.20gb", 0,
	    1, 1, { { 0, P_2G20, 4 } } },
	{ "team-b", "jupyter",
	    "quay.io/jupyter/pytorch-notebook:cuda12-2025-11-17",
	    "jupyter-alice", NULL, CLS_MIG, 1, P_1G10, "1g.10gb", 0,
	    1, 1, { { 0, P_1G10, 6 } } },
	{ "team-c", "triton-infer", "nvcr.io/nvidia/tritonserver:25.10-py3",
	    "triton-infer-1", NULL, CLS_MIG, 1, P_1G20, "1g.20gb", 0,
	    1, 1, { { 1, P_1G20, 0 } } },
	{ "team-c", "sd-batch",
	    "docker.io/pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime",
	    "sd-batch-0", "sd-batch-0-gpu", CLS_GPU, 1, -1, NULL, 0,
	    1, 1, { { 2, -1, 0 } } },
	{ "team-a", "eval-harness", "nvcr.io/nvidia/pytorch:25.10-py3",
	    "eval-harness-0", NULL, CLS_GPU, 1, -1, NULL, 0,
	    3, 1, { { 0, -1, 0 } } },
	{ "team-b", "rdma-bench", "nvcr.io/nvidia/pytorch:25.10-py3",
	    "rdma-bench-0", "rdma-bench-0-gpu-nic", CLS_GPU, 1, -1, NULL, 1,
	    0, 1, { { 4, -1, 0 } } },
	{ "team-b", "jupyter",
	    "quay.io/jupyter/pytorch-notebook:cuda12-2025-11-17",
	    "jupyter-bob", NULL, CLS_MIG, 1, P_1G10, "1g.10gb", 0,
	    2, 1, { { 0, P_1G10, 2 } } },
	{ "team-c", "rag-embed",
	    "ghcr.io/huggingface/text-embeddings-inference:hopper-1.8",
	    "rag-embed-0", "rag-embed-0-gpu", CLS_MIG, 1, P_3G40, "3g.40gb", 0,
	    2, 1, { { 0, P_3G40, 4 } } },
	/* pending: no node has 8 free untainted GPUs; quota used up */
	{ "team-a", "llm-pretrain", "nvcr.io/nvidia/pytorch:25.10-py3",
	    "llm-pretrain-0", "llm-pretrain-0-gpus", CLS_GPU, 8, -1, NULL, 0,
	    -1, 0, { { 0, 0, 0 } } },
	/* pending: 1g.12gb is an H100 94GB profile, nobody has it */
	{ "team-b", "whisper-asr", "ghcr.io/ggml-org/whisper.cpp:main-cuda",
	    "whisper-asr-0", "whisper-asr-0-gpu", CLS_MIG, 1, -1, "1g.12gb", 0,
	    -1, 0, { { 0, 0, 0 } } }
};

#define GEN_NEXAMPLE	((int)(sizeof(gen_example) / sizeof(gen_example[0])))

/* emitter */
static void	out_flush(struct gen_out *);
static void	out_write(struct gen_out *, const char *, size_t);
static void	out_puts(struct gen_out *, const char *);
static void	out_putc(struct gen_out *, int);
static void	out_indent(struct gen_out *, int);
static void	out_child(struct gen_out *);
static void	out_key(struct gen_out *, const char *);
static void	out_scalar_begin(struct gen_out *);
static void	out_scalar_end(struct gen_out *);
static int	out_yaml_plain(const char *, size_t);
static void	out_quoted(struct gen_out *, const char *);
static void	out_str(struct gen_out *, const char *);
static void	out_int(struct gen_out *, long long);
static void	out_bool(struct gen_out *, int);
static void	out_null(struct gen_out *);
static void	out_open(struct gen_out *, int);
static void	out_close(struct gen_out *);
static void	out_kstr(struct gen_out *, const char *, const char *);
static void	out_kfmt(struct gen_out *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	out_kint(struct gen_out *, const char *, long long);
static void	out_kbool(struct gen_out *, const char *, int);
static void	out_kmap(struct gen_out *, const char *);
static void	out_klist(struct gen_out *, const char *);

/* helpers */
static uint64_t	gen_mix64(uint64_t);
static uint64_t	gen_rand(struct gen *);
static uint64_t	gen_hash(uint64_t, const char *, const char *,
		    const char *);
static void	gen_uid(const struct gen *, const char *, const char *,
		    const char *, char *, size_t);
static void	gen_hex(const struct gen *, const char *, const char *,
		    char *, size_t);
static void	gen_time(long long, char *, size_t);
static void	gen_qty_int(struct gen_out *, const char *, long long);
static void	gen_qty_str(struct gen_out *, const char *, const char *);
static void	gen_qty_mib(struct gen_out *, const char *, long long);
static void	gen_attr(struct gen_out *, const char *, const char *,
		    const char *);
static void	gen_ktime(struct gen_out *, const char *, long long);
static void	gen_pci(int, char *, size_t, char *, size_t);
static void	gen_mig_name(char *, size_t, int, int, int);
static void	gen_ns_name(int, char *, size_t);
static void	gen_rand_suffix(const struct gen *, const char *, char *);

/* model */
static int	gen_dyn_fits(const struct gen_gpu *, int, int);
static void	gen_dyn_take(struct gen_gpu *, int, int);
static int	gen_take(struct gen *, int, int, int, int, char *, size_t);
static int	gen_alloc_node(struct gen *, int, int, int, char *, size_t);
static int	gen_alloc(struct gen *, struct gen_claim *);
static int	gen_cmp_gpu_name(const void *, const void *);
static int	gen_setup(struct gen *);
static void	gen_build_random(struct gen *);
static int	gen_build_example(struct gen *);
static void	gen_quota(struct gen *);

/* objects */
struct gen_meta;
static void	gen_obj_begin(struct gen *, const char *, const char *);
static void	gen_meta(struct gen *, const struct gen_meta *);
static void	gen_emit_namespace(struct gen *, int);
static void	gen_emit_node(struct gen *, int);
static void	gen_emit_class(struct gen *, int, const char *,
		    const char *);
static void	gen_slice_begin(struct gen *, const struct gen_node *,
		    const char *, int, long long);
static void	gen_slice_pool(struct gen *, const struct gen_node *,
		    const char *, int);
static void	gen_caps(struct gen_out *, const int *, int, int);
static void	gen_counters(struct gen_out *, const int *, unsigned);
static void	gen_gpu_attrs(struct gen *, const char *, const char *,
		    const char *, const char *, const char *);
static void	gen_emit_slices(struct gen *, int);
static void	gen_emit_nic_slice(struct gen *, int);
static void	gen_emit_quota(struct gen *, int);
static void	gen_claim_spec(struct gen_out *, const struct gen_req *, int,
		    const char *);
static void	gen_emit_templates(struct gen *, int);
static void	gen_emit_claim(struct gen *, const struct gen_claim *);
static void	gen_emit_pod(struct gen *, const struct gen_claim *);
static int	gen_emit(struct gen *);

/* command line */
static void	gen_usage(FILE *);
static int	gen_parse_long(const char *, const char *, long, long, long *);
static int	gen_error(const char *, ...)
		    __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------ */

static void
out_flush(struct gen_out *o)
{
	if (o->len > 0 && fwrite(o->buf, 1, o->len, o->fp) != o->len &&
	    o->err == 0)
		o->err = errno != 0 ? errno : EIO;
	o->len = 0;
}

static void
out_write(struct gen_out *o, const char *s, size_t n)
{
	if (o->len + n > sizeof(o->buf)) {
		out_flush(o);
		if (n > sizeof(o->buf)) {
			if (fwrite(s, 1, n, o->fp) != n && o->err == 0)
				o->err = errno != 0 ? errno : EIO;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void
out_puts(struct gen_out *o, const char *s)
{
	out_write(o, s, strlen(s));
}

static void
out_putc(struct gen_out *o, int c)
{
	if (o->len == sizeof(o->buf))
		out_flush(o);
	o->buf[o->len++] = (char)c;
}

static void
out_indent(struct gen_out *o, int n)
{
	static const char	sp[] = "                                "
				    "                                ";
	int			k;

	while (n > 0) {
		k = n > 64 ? 64 : n;
		out_write(o, sp, (size_t)k);
		n -= k;
	}
}

/* Start a map entry or a list item in the innermost container. */
static void
out_child(struct gen_out *o)
{
	struct gen_frame	*f = &o->st[o->depth - 1];

	if (o->json) {
		if (f->n > 0)
			out_write(o, ",\n", 2);
		else
			out_putc(o, '\n');
		out_indent(o, o->depth * 2);
		f->n++;
		return;
	}
	if (f->n == 0 && o->pos == GEN_POS_KEY) {
		out_putc(o, '\n');
		o->pos = GEN_POS_LINE;
	}
	if (f->type == GEN_LIST) {
		if (o->pos == GEN_POS_LINE)
			out_indent(o, f->indent);
		out_write(o, "- ", 2);
		o->pos = GEN_POS_DASH;
	} else if (o->pos == GEN_POS_LINE)
		out_indent(o, f->indent);
	/* A map that is a list item has its first key after the dash. */
	f->n++;
}

static void
out_key(struct gen_out *o, const char *k)
{
	out_child(o);
	if (o->json) {
		out_putc(o, '"');
		out_puts(o, k);
		out_write(o, "\": ", 3);
	} else {
		out_puts(o, k);
		out_putc(o, ':');
		o->pos = GEN_POS_KEY;
	}
}

static void
out_scalar_begin(struct gen_out *o)
{
	if (o->depth > 0 && o->st[o->depth - 1].type == GEN_LIST)
		out_child(o);
	if (!o->json && o->pos == GEN_POS_KEY)
		out_putc(o, ' ');
}

static void
out_scalar_end(struct gen_out *o)
{
	if (!o->json) {
		out_putc(o, '\n');
		o->pos = GEN_POS_LINE;
	}
}

/*
 * Can s be written as a plain YAML scalar that every YAML 1.1 and 1.2
 * reader takes for a string?  Conservative: anything beyond a simple word,
 * or that might read as a number, date, bool or null, is quoted.  Numbers
 * and dates only use [0-9_.:eE+-], apart from the 0x / 0o / 0b prefixes.
 */
static int
out_yaml_plain(const char *s, size_t n)
{
	static const char *const	words[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null"
	};
	size_t				i, k;
	int				numeric = 1, digit = 0;
	unsigned char			c;

	if (n == 0 || !isalnum((unsigned char)s[0]) || s[n - 1] == ' ')
		return (0);
	if (n >= 2 && s[0] == '0' && strchr("xXoObB", s[1]) != NULL)
		return (0);
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (!isalnum(c) && strchr("-_./+ ", c) == NULL)
			return (0);
		if (isdigit(c))
			digit = 1;
		else if (strchr("eE._+-", c) == NULL)
			numeric = 0;
	}
	if (numeric && digit)
		return (0);
	if (n <= 5) {
		for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
			if (strlen(words[k]) != n)
				continue;
			for (i = 0; i < n; i++)
				if (tolower((unsigned char)s[i]) != words[k][i])
					break;
			if (i == n)
				return (0);
		}
	}
	return (1);
}

/* Double-quoted string; the escapes are valid in both YAML and JSON. */
static void
out_quoted(struct gen_out *o, const char *s)
{
	const char	*p, *run;
	char		 esc[8];

	out_putc(o, '"');
	run = s;
	for (p = s; *p != '\0'; p++) {
		if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
			continue;
		out_write(o, run, (size_t)(p - run));
		if (*p == '"' || *p == '\\') {
			out_putc(o, '\\');
			out_putc(o, *p);
		} else {
			snprintf(esc, sizeof(esc), "\\u%04x",
			    (unsigned)(unsigned char)*p);
			out_puts(o, esc);
		}
		run = p + 1;
	}
	out_write(o, run, (size_t)(p - run));
	out_putc(o, '"');
}

static void
out_str(struct gen_out *o, const char *s)
{
	size_t	n = strlen(s);

	out_scalar_begin(o);
	if (!o->json && out_yaml_plain(s, n))
		out_write(o, s, n);
	else
		out_quoted(o, s);
	out_scalar_end(o);
}

static void
out_int(struct gen_out *o, long long v)
{
	char	b[32];
	int	n;

	n = snprintf(b, sizeof(b), "%lld", v);
	out_scalar_begin(o);
	out_write(o, b, (size_t)n);
	out_scalar_end(o);
}

static void
out_bool(struct gen_out *o, int v)
{
	out_scalar_begin(o);
	out_puts(o, v ? "true" : "false");
	out_scalar_end(o);
}

static void
out_null(struct gen_out *o)
{
	out_scalar_begin(o);
	out_puts(o, "null");
	out_scalar_end(o);
}

static void
out_open(struct gen_out *o, int type)
{
	struct gen_frame	*p, *f;
	int			 indent = 0;

	if (o->depth == GEN_MAXDEPTH) {
		fprintf(stderr, "dra-gen-fleet: nesting too deep\n");
		abort();
	}
	if (o->depth > 0) {
		p = &o->st[o->depth - 1];
		if (p->type == GEN_LIST)
			out_child(o);
		if (o->pos == GEN_POS_KEY)
			indent = type == GEN_MAP ? p->indent + 2 : p->indent;
		else
			indent = p->indent + 2;
	}
	if (o->json)
		out_putc(o, type == GEN_MAP ? '{' : '[');
	f = &o->st[o->depth++];
	f->type = type;
	f->indent = indent;
	f->n = 0;
}

static void
out_close(struct gen_out *o)
{
	struct gen_frame	*f = &o->st[--o->depth];

	if (o->json) {
		if (f->n > 0) {
			out_putc(o, '\n');
			out_indent(o, o->depth * 2);
		}
		out_putc(o, f->type == GEN_MAP ? '}' : ']');
		if (o->depth == 0)
			out_putc(o, '\n');
		return;
	}
	if (f->n == 0) {
		if (o->pos == GEN_POS_KEY)
			out_putc(o, ' ');
		out_puts(o, f->type == GEN_MAP ? "{}\n" : "[]\n");
		o->pos = GEN_POS_LINE;
	}
}

static void
out_kstr(struct gen_out *o, const char *k, const char *v)
{
	out_key(o, k);
	out_str(o, v);
}

static void
out_kfmt(struct gen_out *o, const char *k, const char *fmt, ...)
{
	char	b[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	out_key(o, k);
	out_str(o, b);
}

static void
out_kint(struct gen_out *o, const char *k, long long v)
{
	out_key(o, k);
	out_int(o, v);
}

static void
out_kbool(struct gen_out *o, const char *k, int v)
{
	out_key(o, k);
	out_bool(o, v);
}

static void
out_kmap(struct gen_out *o, const char *k)
{
	out_key(o, k);
	out_open(o, GEN_MAP);
}

static void
out_klist(struct gen_out *o, const char *k)
{
	out_key(o, k);
	out_open(o, GEN_LIST);
}

/* ------------------------------------------------------------------ */

static uint64_t
gen_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* splitmix64 */
static uint64_t
gen_rand(struct gen *g)
{
	g->rng += 0x9e3779b97f4a7c15ULL;
	return (gen_mix64(g->rng));
}

/* FNV-1a over the seed and up to three strings, then mixed. */
static uint64_t
gen_hash(uint64_t seed, const char *a, const char *b, const char *c)
{
	const char *const	 parts[3] = { a, b, c };
	const unsigned char	*p;
	uint64_t		 h = 0xcbf29ce484222325ULL;
	int			 i;

	h ^= seed;
	h *= 0x100000001b3ULL;
	for (i = 0; i < 3; i++) {
		if (parts[i] != NULL)
			for (p = (const unsigned char *)parts[i]; *p; p++) {
				h ^= *p;
				h *= 0x100000001b3ULL;
			}
		h ^= 0xff;
		h *= 0x100000001b3ULL;
	}
	return (gen_mix64(h));
}

/* A version-4 style UUID derived from (seed, kind, namespace, name). */
static void
gen_uid(const struct gen *g, const char *kind, const char *ns,
    const char *name, char *out, size_t outsz)
{
	uint64_t	h1, h2;

	h1 = gen_hash(g->seed, kind, ns != NULL ? ns : "", name);
	h2 = gen_mix64(h1 ^ 0x5851f42d4c957f2dULL);
	snprintf(out, outsz, "%08x-%04x-4%03x-%04x-%012llx",
	    (unsigned)(h1 >> 32), (unsigned)((h1 >> 16) & 0xffff),
	    (unsigned)(h1 & 0xfff),
	    (unsigned)(((h2 >> 48) & 0x3fff) | 0x8000),
	    (unsigned long long)(h2 & 0xffffffffffffULL));
}

/* 64 hex digits (container IDs, image digests). */
static void
gen_hex(const struct gen *g, const char *a, const char *b, char *out,
    size_t outsz)
{
	uint64_t	h;

	h = gen_hash(g->seed, a, b, "hex");
	snprintf(out, outsz, "%016llx%016llx%016llx%016llx",
	    (unsigned long long)h,
	    (unsigned long long)gen_mix64(h + 1),
	    (unsigned long long)gen_mix64(h + 2),
	    (unsigned long long)gen_mix64(h + 3));
}

/* RFC 3339 UTC from seconds since the epoch (civil_from_days). */
static void
gen_time(long long t, char *out, size_t outsz)
{
	long long	days, rem, z, era, doe, yoe, y, doy, mp, d, m;

	days = t / 86400;
	rem = t % 86400;
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	if (m <= 2)
		y++;
	snprintf(out, outsz, "%04d-%02d-%02dT%02d:%02d:%02dZ",
	    (int)(y % 10000), (int)m, (int)d, (int)(rem / 3600),
	    (int)(rem / 60 % 60), (int)(rem % 60));
}

static void
gen_qty_int(struct gen_out *o, const char *k, long long v)
{
	char	b[32];

	snprintf(b, sizeof(b), "%lld", v);
	gen_qty_str(o, k, b);
}

static void
gen_qty_str(struct gen_out *o, const char *k, const char *v)
{
	out_kmap(o, k);
	out_kstr(o, "value", v);
	out_close(o);
}

static void
gen_qty_mib(struct gen_out *o, const char *k, long long mib)
{
	char	b[32];

	snprintf(b, sizeof(b), "%lldMi", mib);
	gen_qty_str(o, k, b);
}

/* A DeviceAttribute: type is "string", "version", "int" or "bool". */
static void
gen_attr(struct gen_out *o, const char *k, const char *type, const char *v)
{
	out_kmap(o, k);
	if (strcmp(type, "int") == 0) {
		out_key(o, type);
		out_int(o, strtoll(v, NULL, 10));
	} else
		out_kstr(o, type, v);
	out_close(o);
}

static void
gen_ktime(struct gen_out *o, const char *k, long long t)
{
	char	b[64];

	gen_time(t, b, sizeof(b));
	out_kstr(o, k, b);
}

static void
gen_pci(int gpu, char *bus, size_t bussz, char *root, size_t rootsz)
{
	int	b = gen_pcibus[gpu % 8];

	snprintf(bus, bussz, "0000:%02x:00.0", b + 2 * (gpu / 8));
	snprintf(root, rootsz, "pci0000:%02x", b - 1);
}

static void
gen_mig_name(char *out, size_t outsz, int gpu, int prof, int start)
{
	snprintf(out, outsz, "gpu-%d-mig-%s-%d-%d", gpu,
	    gen_prof[prof].dname, gen_prof[prof].giid, start);
}

static void
gen_ns_name(int i, char *out, size_t outsz)
{
	if (i < 26)
		snprintf(out, outsz, "team-%c", 'a' + i);
	else
		snprintf(out, outsz, "team-%d", i + 1);
}

/* The 5 characters the resourceclaim controller appends. */
static void
gen_rand_suffix(const struct gen *g, const char *pod, char *out)
{
	static const char	alpha[] = "bcdfghjklmnpqrstvwxz";
	uint64_t		h;
	int			i;

	h = gen_hash(g->seed, "suffix", pod, NULL);
	for (i = 0; i < 5; i++) {
		out[i] = alpha[h % (sizeof(alpha) - 1)];
		h /= sizeof(alpha) - 1;
	}
	out[5] = '\0';
}

/* ------------------------------------------------------------------ */
/* Allocation bookkeeping. */

/* prof -1 is the full GPU, which consumes every counter. */
static int
gen_dyn_fits(const struct gen_gpu *gp, int prof, int start)
{
	const struct gen_profile	*p;
	unsigned			 mask;
	int				 k;

	if (gp->full || gp->tainted)
		return (0);
	if (prof < 0)
		return (gp->slices == 0 &&
		    memcmp(gp->ctr, gen_total, sizeof(gen_total)) == 0);
	p = &gen_prof[prof];
	if ((p->starts & (1u << start)) == 0)
		return (0);
	mask = ((1u << p->size) - 1) << start;
	if ((gp->slices & mask) != 0)
		return (0);
	for (k = 0; k < GEN_NCTR; k++)
		if (gp->ctr[k] < p->ctr[k])
			return (0);
	return (1);
}

static void
gen_dyn_take(struct gen_gpu *gp, int prof, int start)
{
	const struct gen_profile	*p;
	int				 k;

	if (prof < 0) {
		gp->full = 1;
		gp->slices = 0xff;
		memset(gp->ctr, 0, sizeof(gp->ctr));
		return;
	}
	p = &gen_prof[prof];
	gp->slices |= (unsigned char)(((1u << p->size) - 1) << start);
	for (k = 0; k < GEN_NCTR; k++)
		gp->ctr[k] -= p->ctr[k];
}

/*
 * Take one device on node n, GPU gpu: the full GPU (prof -1) or the MIG
 * device (prof, start).  Returns 0 and the device name, or -1 when the
 * device does not exist or is not free.
 */
static int
gen_take(struct gen *g, int n, int gpu, int prof, int start, char *name,
    size_t namesz)
{
	struct gen_node		*node = &g->nodes[n];
	struct gen_gpu		*gp = &g->gpus[node->gpu0 + gpu];
	const struct gen_mix	*mix;
	int			 i;

	switch (node->layout) {
	case L_FULL:
		if (prof >= 0 || gp->full || gp->tainted)
			return (-1);
		gp->full = 1;
		snprintf(name, namesz, "gpu-%d", gpu);
		return (0);
	case L_DYN:
		if (!gen_dyn_fits(gp, prof, start))
			return (-1);
		gen_dyn_take(gp, prof, start);
		break;
	case L_STATIC:
		if (prof < 0)
			return (-1);
		mix = &gen_mixes[gpu % GEN_NMIX];
		for (i = 0; i < mix->n; i++)
			if (mix->part[i].prof == prof &&
			    mix->part[i].start == start)
				break;
		if (i == mix->n || (gp->parts & (1u << i)) != 0)
			return (-1);
		gp->parts |= (unsigned char)(1u << i);
		break;
	default:
		return (-1);
	}
	if (prof < 0)
		snprintf(name, namesz, "gpu-%d", gpu);
	else
		gen_mig_name(name, namesz, gpu, prof, start);
	return (0);
}

/* First fit on one node, GPUs and placements in device-name order. */
static int
gen_alloc_node(struct gen *g, int n, int cls, int prof, char *name,
    size_t namesz)
{
	const struct gen_node	*node = &g->nodes[n];
	const struct gen_mix	*mix;
	int			 j, gpu, s, i;

	for (j = 0; j < g->ngpu; j++) {
		gpu = g->order[j];
		if (cls == CLS_GPU) {
			if (gen_take(g, n, gpu, -1, 0, name, namesz) == 0)
				return (0);
			continue;
		}
		if (node->layout == L_DYN) {
			for (s = 0; s < GEN_NSLICE; s++)
				if ((gen_prof[prof].starts & (1u << s)) &&
				    gen_take(g, n, gpu, prof, s, name,
				    namesz) == 0)
					return (0);
		} else if (node->layout == L_STATIC) {
			mix = &gen_mixes[gpu % GEN_NMIX];
			for (i = 0; i < mix->n; i++)
				if (mix->part[i].prof == prof &&
				    gen_take(g, n, gpu, prof,
				    mix->part[i].start, name, namesz) == 0)
					return (0);
		}
	}
	return (-1);
}

/*
 * Allocate a one-device claim: scan the nodes from a random one.  Nothing
 * is ever freed, so once a kind of device is not found anywhere it never
 * will be; fail_full and fail_prof remember that.
 */
static int
gen_alloc(struct gen *g, struct gen_claim *c)
{
	const struct gen_req	*r = &c->req[0];
	int			*fail;
	int			 start, k, n;

	fail = r->cls == CLS_GPU ? &g->fail_full : &g->fail_prof[r->prof];
	if (*fail)
		return (-1);
	start = (int)(gen_rand(g) % (uint64_t)g->nnodes);
	for (k = 0; k < g->nnodes; k++) {
		n = (start + k) % g->nnodes;
		if (gen_alloc_node(g, n, r->cls, r->prof, c->res[0].device,
		    sizeof(c->res[0].device)) == 0) {
			c->node = n;
			c->nres = 1;
			c->res[0].req = 0;
			c->res[0].cls = r->cls;
			return (0);
		}
	}
	*fail = 1;
	return (-1);
}

static int
gen_cmp_gpu_name(const void *a, const void *b)
{
	char	na[16], nb[16];

	snprintf(na, sizeof(na), "gpu-%d", *(const int *)a);
	snprintf(nb, sizeof(nb), "gpu-%d", *(const int *)b);
	return (strcmp(na, nb));
}

static int
gen_setup(struct gen *g)
{
	struct gen_gpu	*gp;
	int		 i, j;

	g->nodes = calloc((size_t)g->nnodes, sizeof(*g->nodes));
	g->gpus = calloc((size_t)g->nnodes * (size_t)g->ngpu,
	    sizeof(*g->gpus));
	g->ns = calloc((size_t)g->nns, sizeof(*g->ns));
	g->claims = calloc(g->nclaims > 0 ? (size_t)g->nclaims : 1,
	    sizeof(*g->claims));
	if (g->nodes == NULL || g->gpus == NULL || g->ns == NULL ||
	    g->claims == NULL)
		return (gen_error("out of memory"));
	for (i = 0; i < g->nnodes; i++) {
		snprintf(g->nodes[i].name, sizeof(g->nodes[i].name),
		    "gpu-node-%d", i + 1);
		g->nodes[i].layout = g->layout == L_MIXED ? i % 3 : g->layout;
		g->nodes[i].gpu0 = i * g->ngpu;
		for (j = 0; j < g->ngpu; j++) {
			gp = &g->gpus[i * g->ngpu + j];
			memcpy(gp->ctr, gen_total, sizeof(gp->ctr));
		}
	}
	for (i = 0; i < g->nns; i++)
		gen_ns_name(i, g->ns[i].name, sizeof(g->ns[i].name));
	for (j = 0; j < g->ngpu; j++)
		g->order[j] = j;
	qsort(g->order, (size_t)g->ngpu, sizeof(int), gen_cmp_gpu_name);
	return (GEN_OK);
}

/* Claims for the synthetic fleet: one device each, round-robin. */
static void
gen_build_random(struct gen *g)
{
	struct gen_claim		*c;
	const struct gen_workload	*w;
	long				 i, j, npend;
	long				*idx;
	int				 has_full = 0, has_dyn = 0;
	int				 has_static = 0, total = 0, p, r;
	char				 sfx[8];

	for (i = 0; i < g->nnodes; i++) {
		has_full |= g->nodes[i].layout != L_STATIC;
		has_dyn |= g->nodes[i].layout == L_DYN;
		has_static |= g->nodes[i].layout == L_STATIC;
	}
	for (p = 0; p < GEN_NPROF; p++)
		if (has_dyn || gen_prof[p].is_static)
			total += gen_prof[p].weight;

	/* The pending fraction: exactly round(C * F) claims, spread. */
	npend = (long)(g->pending * (double)g->nclaims + 0.5);
	idx = calloc(g->nclaims > 0 ? (size_t)g->nclaims : 1, sizeof(*idx));
	if (idx == NULL) {
		gen_error("out of memory");
		exit(GEN_E_IO);
	}
	for (i = 0; i < g->nclaims; i++)
		idx[i] = i;
	for (i = 0; i < npend; i++) {
		j = i + (long)(gen_rand(g) % (uint64_t)(g->nclaims - i));
		g->claims[idx[j]].pending = 1;
		idx[j] = idx[i];
	}
	free(idx);

	for (i = 0; i < g->nclaims; i++) {
		c = &g->claims[i];
		c->ns = (int)(i % g->nns);
		c->templ = (int)(i % 2);
		c->node = -1;
		c->nreq = 1;
		c->req[0].name = "gpu";
		c->req[0].count = 1;
		c->req[0].prof = -1;
		c->created = GEN_T0 + 7200 + 3 * i;
		/* 60 % MIG when both kinds exist. */
		if ((has_dyn || has_static) &&
		    (!has_full || gen_rand(g) % 100 < 60)) {
			r = (int)(gen_rand(g) % (uint64_t)total);
			for (p = 0; p < GEN_NPROF; p++) {
				if (!has_dyn && !gen_prof[p].is_static)
					continue;
				if (r < gen_prof[p].weight)
					break;
				r -= gen_prof[p].weight;
			}
			c->req[0].cls = CLS_MIG;
			c->req[0].prof = p;
			c->req[0].profile = gen_prof[p].name;
			w = &gen_serve[gen_rand(g) % GEN_NSERVE];
		} else {
			c->req[0].cls = CLS_GPU;
			w = &gen_train[gen_rand(g) % GEN_NTRAIN];
		}
		c->workload = w->name;
		c->image = w->image;
		snprintf(c->pod, sizeof(c->pod), "%s-%ld", w->name, i);
		if (c->templ) {
			gen_rand_suffix(g, c->pod, sfx);
			snprintf(c->name, sizeof(c->name), "%s-gpu-%s", c->pod,
			    sfx);
		} else
			snprintf(c->name, sizeof(c->name), "%s-gpu", c->pod);
		if (!c->pending && gen_alloc(g, c) != 0)
			c->pending = 1;
	}
}

/*
 * The README demo.  gpu-node-1: 8 full H100 and a NIC driver; gpu-node-2:
 * dynamic MIG; gpu-node-3: static MIG; gpu-node-4: full, gpu-3 tainted.
 * Each placement goes through gen_take, so the hand-written table is
 * checked against the same rules as the random fleet.
 */
static int
gen_build_example(struct gen *g)
{
	const struct gen_exclaim	*e;
	struct gen_claim		*c;
	struct gen_res			*res;
	int				 i, k, ns;
	char				 sfx[8];

	g->nodes[0].layout = L_FULL;
	g->nodes[0].nic = 1;
	g->nodes[1].layout = L_DYN;
	g->nodes[2].layout = L_STATIC;
	g->nodes[3].layout = L_FULL;
	g->gpus[g->nodes[3].gpu0 + 3].tainted = 1;
	g->has_nic = 1;

	for (i = 0; i < GEN_NEXAMPLE; i++) {
		e = &gen_example[i];
		c = &g->claims[i];
		for (ns = 0; ns < g->nns; ns++)
			if (strcmp(g->ns[ns].name, e->ns) == 0)
				break;
		c->ns = ns;
		c->templ = e->claim == NULL;
		c->workload = e->workload;
		c->image = e->image;
		c->created = GEN_T0 + 7200 + 600 * i;
		snprintf(c->pod, sizeof(c->pod), "%s", e->pod);
		if (c->templ) {
			gen_rand_suffix(g, c->pod, sfx);
			snprintf(c->name, sizeof(c->name), "%s-gpu-%s", c->pod,
			    sfx);
		} else
			snprintf(c->name, sizeof(c->name), "%s", e->claim);
		c->nreq = 1;
		c->req[0].name = "gpu";
		c->req[0].cls = e->cls;
		c->req[0].count = e->count;
		c->req[0].prof = e->prof;
		c->req[0].profile = e->profile;
		if (e->nic) {
			c->nreq = 2;
			c->req[1].name = "nic";
			c->req[1].cls = CLS_NIC;
			c->req[1].count = 1;
			c->req[1].prof = -1;
			c->match_attr = "resource.kubernetes.io/pcieRoot";
		}
		c->node = e->node;
		c->pending = e->node < 0;
		for (k = 0; k < e->ndev; k++) {
			res = &c->res[c->nres++];
			res->req = 0;
			res->cls = e->cls;
			if (gen_take(g, e->node, e->dev[k].gpu, e->dev[k].prof,
			    e->dev[k].start, res->device,
			    sizeof(res->device)) != 0) {
				fprintf(stderr, "dra-gen-fleet: example claim "
				    "%s: device taken twice\n", c->name);
				abort();
			}
		}
		if (e->nic) {
			/* nic-1 shares pci0000:99 with gpu-4. */
			res = &c->res[c->nres++];
			res->req = 1;
			res->cls = CLS_NIC;
			snprintf(res->device, sizeof(res->device), "nic-1");
		}
	}
	return (GEN_OK);
}

/* Quota usage is charged from the claim spec, pending claims included. */
static void
gen_quota(struct gen *g)
{
	struct gen_ns		*ns;
	const struct gen_claim	*c;
	long			 i;
	int			 k;

	for (i = 0; i < g->nclaims; i++) {
		c = &g->claims[i];
		ns = &g->ns[c->ns];
		ns->nclaims++;
		for (k = 0; k < c->nreq; k++)
			ns->used[c->req[k].cls] += c->req[k].count;
		if (c->templ)
			ns->tmpl |= c->req[0].cls == CLS_GPU ? 1u :
			    1u << (1 + c->req[0].prof);
	}
	for (k = 0; k < g->nns; k++) {
		ns = &g->ns[k];
		ns->tmpl |= 1;
		ns->hard[CLS_GPU] = (ns->used[CLS_GPU] / 4 + 1) * 4;
		ns->hard[CLS_MIG] = (ns->used[CLS_MIG] / 4 + 1) * 4;
		ns->hard_claims = (ns->nclaims / 10 + 1) * 10;
	}
	/* The demo's team-a has used up its GPU quota. */
	if (g->example)
		g->ns[0].hard[CLS_GPU] = g->ns[0].used[CLS_GPU];
}

/* ------------------------------------------------------------------ */
/* Objects. */

struct gen_meta {
	const char		*kind;		/* for the UID */
	const char		*name;
	const char		*ns;		/* NULL: cluster-scoped */
	const char		*generate_name;
	const char *const	*annotations;	/* key, value, ..., NULL */
	const char *const	*labels;
	const char		*finalizer;
	const char		*owner_api;
	const char		*owner_kind;
	const char		*owner_name;
	long long		 created;
	int			 generation;	/* 0: none */
};

static void
gen_obj_begin(struct gen *g, const char *api, const char *kind)
{
	out_open(g->out, GEN_MAP);
	out_kstr(g->out, "apiVersion", api);
	out_kstr(g->out, "kind", kind);
}

static void
gen_meta(struct gen *g, const struct gen_meta *m)
{
	struct gen_out		*o = g->out;
	const char *const	*kv;
	char			 uid[48];

	out_kmap(o, "metadata");
	if (m->annotations != NULL) {
		out_kmap(o, "annotations");
		for (kv = m->annotations; *kv != NULL; kv += 2)
			out_kstr(o, kv[0], kv[1]);
		out_close(o);
	}
	if (!g->apply)
		gen_ktime(o, "creationTimestamp", m->created);
	if (m->finalizer != NULL && !g->apply) {
		out_klist(o, "finalizers");
		out_str(o, m->finalizer);
		out_close(o);
	}
	if (m->generate_name != NULL)
		out_kstr(o, "generateName", m->generate_name);
	if (m->generation > 0 && !g->apply)
		out_kint(o, "generation", m->generation);
	if (m->labels != NULL) {
		out_kmap(o, "labels");
		for (kv = m->labels; *kv != NULL; kv += 2)
			out_kstr(o, kv[0], kv[1]);
		out_close(o);
	}
	out_kstr(o, "name", m->name);
	if (m->ns != NULL)
		out_kstr(o, "namespace", m->ns);
	if (m->owner_kind != NULL && !g->apply) {
		gen_uid(g, m->owner_kind, m->ns, m->owner_name, uid,
		    sizeof(uid));
		out_klist(o, "ownerReferences");
		out_open(o, GEN_MAP);
		out_kstr(o, "apiVersion", m->owner_api);
		out_kbool(o, "blockOwnerDeletion", 1);
		out_kbool(o, "controller", 1);
		out_kstr(o, "kind", m->owner_kind);
		out_kstr(o, "name", m->owner_name);
		out_kstr(o, "uid", uid);
		out_close(o);
		out_close(o);
	}
	if (!g->apply) {
		out_kfmt(o, "resourceVersion", "%lld", g->rv++);
		gen_uid(g, m->kind, m->ns, m->name, uid, sizeof(uid));
		out_kstr(o, "uid", uid);
	}
	out_close(o);
}

static void
gen_emit_namespace(struct gen *g, int i)
{
	struct gen_out		*o = g->out;
	struct gen_meta		 m;
	const char		*labels[3];

	labels[0] = "kubernetes.io/metadata.name";
	labels[1] = g->ns[i].name;
	labels[2] = NULL;
	memset(&m, 0, sizeof(m));
	m.kind = "Namespace";
	m.name = g->ns[i].name;
	m.labels = labels;
	m.created = GEN_T0 + i;
	gen_obj_begin(g, "v1", "Namespace");
	gen_meta(g, &m);
	out_kmap(o, "spec");
	out_klist(o, "finalizers");
	out_str(o, "kubernetes");
	out_close(o);
	out_close(o);
	if (!g->apply) {
		out_kmap(o, "status");
		out_kstr(o, "phase", "Active");
		out_close(o);
	}
	out_close(o);
}

static void
gen_emit_node(struct gen *g, int i)
{
	static const char *const	conds[4][4] = {
		{ "MemoryPressure", "False", "KubeletHasSufficientMemory",
		    "kubelet has sufficient memory available" },
		{ "DiskPressure", "False", "KubeletHasNoDiskPressure",
		    "kubelet has no disk pressure" },
		{ "PIDPressure", "False", "KubeletHasSufficientPID",
		    "kubelet has sufficient PID available" },
		{ "Ready", "True", "KubeletReady",
		    "kubelet is posting ready status" }
	};
	static const char *const	annotations[] = {
		"node.alpha.kubernetes.io/ttl", "0",
		"volumes.kubernetes.io/controller-managed-attach-detach",
		"true",
		NULL
	};
	struct gen_out			*o = g->out;
	const struct gen_node		*n = &g->nodes[i];
	struct gen_meta			 m;
	const char			*labels[15];
	const char *const		*res;
	char				 count[8], ip[32], cidr[32], id[80];
	long long			 t = GEN_T0 + 60 + 10LL * i;
	int				 k;

	snprintf(count, sizeof(count), "%d", g->ngpu);
	k = 0;
	labels[k++] = "kubernetes.io/arch";
	labels[k++] = "amd64";
	labels[k++] = "kubernetes.io/hostname";
	labels[k++] = n->name;
	labels[k++] = "kubernetes.io/os";
	labels[k++] = "linux";
	labels[k++] = "nvidia.com/gpu.count";
	labels[k++] = count;
	labels[k++] = "nvidia.com/gpu.present";
	labels[k++] = "true";
	labels[k++] = "nvidia.com/gpu.product";
	labels[k++] = GEN_PRODLABEL;
	labels[k] = NULL;

	memset(&m, 0, sizeof(m));
	m.kind = "Node";
	m.name = n->name;
	m.annotations = annotations;
	m.labels = labels;
	m.created = t;
	gen_obj_begin(g, "v1", "Node");
	gen_meta(g, &m);

	snprintf(cidr, sizeof(cidr), "10.%d.%d.0/24", 64 + (i / 256) % 64,
	    i % 256);
	out_kmap(o, "spec");
	out_kstr(o, "podCIDR", cidr);
	out_klist(o, "podCIDRs");
	out_str(o, cidr);
	out_close(o);
	out_close(o);

	out_kmap(o, "status");
	snprintf(ip, sizeof(ip), "10.0.%d.%d", (i / 250) % 256, i % 250 + 4);
	out_klist(o, "addresses");
	out_open(o, GEN_MAP);
	out_kstr(o, "address", ip);
	out_kstr(o, "type", "InternalIP");
	out_close(o);
	out_open(o, GEN_MAP);
	out_kstr(o, "address", n->name);
	out_kstr(o, "type", "Hostname");
	out_close(o);
	out_close(o);
	for (res = (const char *const[]){ "allocatable", "capacity", NULL };
	    *res != NULL; res++) {
		out_kmap(o, *res);
		out_kstr(o, "cpu", "64");
		out_kstr(o, "memory", "512Gi");
		out_kstr(o, "pods", "110");
		out_close(o);
	}
	out_klist(o, "conditions");
	for (k = 0; k < 4; k++) {
		out_open(o, GEN_MAP);
		gen_ktime(o, "lastHeartbeatTime", GEN_T0 + 86400);
		gen_ktime(o, "lastTransitionTime", t + 30);
		out_kstr(o, "message", conds[k][3]);
		out_kstr(o, "reason", conds[k][2]);
		out_kstr(o, "status", conds[k][1]);
		out_kstr(o, "type", conds[k][0]);
		out_close(o);
	}
	out_close(o);
	out_kmap(o, "nodeInfo");
	out_kstr(o, "architecture", "amd64");
	gen_uid(g, "bootID", NULL, n->name, id, sizeof(id));
	out_kstr(o, "bootID", id);
	out_kstr(o, "containerRuntimeVersion", "containerd://2.1.4");
	out_kstr(o, "kernelVersion", "6.8.0-87-generic");
	out_kstr(o, "kubeletVersion", "v1.37.0");
	gen_hex(g, "machineID", n->name, id, sizeof(id));
	id[32] = '\0';
	out_kstr(o, "machineID", id);
	out_kstr(o, "operatingSystem", "linux");
	out_kstr(o, "osImage", "Ubuntu 24.04.3 LTS");
	gen_uid(g, "systemUUID", NULL, n->name, id, sizeof(id));
	out_kstr(o, "systemUUID", id);
	out_close(o);
	out_close(o);
	out_close(o);
}

static void
gen_emit_class(struct gen *g, int i, const char *name, const char *extres)
{
	struct gen_out	*o = g->out;
	struct gen_meta	 m;
	char		 cel[256];

	if (strcmp(name, GEN_NICDRIVER) == 0)
		snprintf(cel, sizeof(cel), "device.driver == '%s'", name);
	else
		snprintf(cel, sizeof(cel), "device.driver == '%s' && "
		    "device.attributes['%s'].type == '%s'", GEN_DRIVER,
		    GEN_DRIVER, strcmp(name, "mig.nvidia.com") == 0 ? "mig" :
		    "gpu");
	memset(&m, 0, sizeof(m));
	m.kind = "DeviceClass";
	m.name = name;
	m.created = GEN_T0 + 30 + i;
	m.generation = 1;
	gen_obj_begin(g, "resource.k8s.io/v1", "DeviceClass");
	gen_meta(g, &m);
	out_kmap(o, "spec");
	if (extres != NULL)
		out_kstr(o, "extendedResourceName", extres);
	out_klist(o, "selectors");
	out_open(o, GEN_MAP);
	out_kmap(o, "cel");
	out_kstr(o, "expression", cel);
	out_close(o);
	out_close(o);
	out_close(o);
	out_close(o);
	out_close(o);
}

/* Opens the slice object and its spec; the caller closes both. */
static void
gen_slice_begin(struct gen *g, const struct gen_node *n, const char *driver,
    int k, long long t)
{
	struct gen_meta	m;
	char		name[96], gname[96];

	snprintf(name, sizeof(name), "%s-%s-%d", n->name, driver, k);
	snprintf(gname, sizeof(gname), "%s-%s-", n->name, driver);
	memset(&m, 0, sizeof(m));
	m.kind = "ResourceSlice";
	m.name = name;
	m.generate_name = gname;
	m.generation = 1;
	m.owner_api = "v1";
	m.owner_kind = "Node";
	m.owner_name = n->name;
	m.created = t;
	gen_obj_begin(g, "resource.k8s.io/v1", "ResourceSlice");
	gen_meta(g, &m);
	out_kmap(g->out, "spec");
}

static void
gen_slice_pool(struct gen *g, const struct gen_node *n, const char *driver,
    int count)
{
	struct gen_out	*o = g->out;

	out_kstr(o, "driver", driver);
	out_kstr(o, "nodeName", n->name);
	out_kmap(o, "pool");
	out_kint(o, "generation", 1);
	out_kstr(o, "name", n->name);
	out_kint(o, "resourceSliceCount", count);
	out_close(o);
}

/* Device capacity; nlegacy > 0 adds the static-MIG memorySlice<i> keys. */
static void
gen_caps(struct gen_out *o, const int *c, int slice0, int nlegacy)
{
	int	i;

	out_kmap(o, "capacity");
	gen_qty_int(o, "copyEngines", c[CTR_CE]);
	gen_qty_int(o, "decoders", c[CTR_DEC]);
	gen_qty_int(o, "encoders", c[CTR_ENC]);
	gen_qty_int(o, "jpegEngines", c[CTR_JPEG]);
	gen_qty_mib(o, "memory", c[CTR_MEM]);
	for (i = slice0; i < slice0 + nlegacy; i++)
		gen_qty_str(o, gen_memslice_legacy[i], "1");
	gen_qty_int(o, "multiprocessors", c[CTR_SM]);
	gen_qty_int(o, "ofaEngines", c[CTR_OFA]);
	out_close(o);
}

static void
gen_counters(struct gen_out *o, const int *c, unsigned slices)
{
	int	i;

	out_kmap(o, "counters");
	gen_qty_int(o, "copy-engines", c[CTR_CE]);
	gen_qty_int(o, "decoders", c[CTR_DEC]);
	gen_qty_int(o, "encoders", c[CTR_ENC]);
	gen_qty_int(o, "jpeg-engines", c[CTR_JPEG]);
	gen_qty_mib(o, "memory", c[CTR_MEM]);
	for (i = 0; i < GEN_NSLICE; i++)
		if (slices & (1u << i))
			gen_qty_str(o, gen_memslice[i], "1");
	gen_qty_int(o, "multiprocessors", c[CTR_SM]);
	gen_qty_int(o, "ofa-engines", c[CTR_OFA]);
	out_close(o);
}

/*
 * Attributes of a GPU (profile NULL) or a MIG device.  uuid is the GPU's;
 * mig_uuid is set for static MIG devices only (dynamic ones have none
 * until they are created).
 */
static void
gen_gpu_attrs(struct gen *g, const char *uuid, const char *bus,
    const char *root, const char *profile, const char *mig_uuid)
{
	struct gen_out	*o = g->out;

	out_kmap(o, "attributes");
	gen_attr(o, "architecture", "string", GEN_ARCH);
	gen_attr(o, "brand", "string", "Nvidia");
	gen_attr(o, "cudaComputeCapability", "version", GEN_CC);
	gen_attr(o, "cudaDriverVersion", "version", GEN_CUDAVER);
	gen_attr(o, "driverVersion", "version", GEN_DRIVERVER);
	if (profile != NULL)
		gen_attr(o, "parentUUID", "string", uuid);
	gen_attr(o, "productName", "string", GEN_PRODUCT);
	if (profile != NULL)
		gen_attr(o, "profile", "string", profile);
	gen_attr(o, "resource.kubernetes.io/pciBusID", "string", bus);
	gen_attr(o, "resource.kubernetes.io/pcieRoot", "string", root);
	gen_attr(o, "type", "string", profile != NULL ? "mig" : "gpu");
	if (profile == NULL)
		gen_attr(o, "uuid", "string", uuid);
	else if (mig_uuid != NULL)
		gen_attr(o, "uuid", "string", mig_uuid);
	out_close(o);
}

static void
gen_emit_slices(struct gen *g, int ni)
{
	struct gen_out		*o = g->out;
	const struct gen_node	*n = &g->nodes[ni];
	const struct gen_mix	*mix;
	const struct gen_profile *p;
	char			 uuid[64], muuid[64], bus[16], root[16];
	char			 dev[48], set[32], id[48];
	long long		 t = GEN_T0 + 150 + 10LL * ni;
	int			 j, gpu, s, i, nc, k, tainted;

	switch (n->layout) {
	case L_FULL:
	case L_STATIC:
		gen_slice_begin(g, n, GEN_DRIVER, 0, t);
		out_klist(o, "devices");
		for (j = 0; j < g->ngpu; j++) {
			gpu = g->order[j];
			snprintf(dev, sizeof(dev), "gpu-%d", gpu);
			gen_uid(g, "gpu", n->name, dev, id, sizeof(id));
			snprintf(uuid, sizeof(uuid), "GPU-%s", id);
			gen_pci(gpu, bus, sizeof(bus), root, sizeof(root));
			if (n->layout == L_FULL) {
				tainted = g->gpus[n->gpu0 + gpu].tainted;
				out_open(o, GEN_MAP);
				gen_gpu_attrs(g, uuid, bus, root, NULL,
				    NULL);
				out_kmap(o, "capacity");
				gen_qty_str(o, "memory", GEN_FULLMEM);
				out_close(o);
				out_kstr(o, "name", dev);
				if (tainted) {
					out_klist(o, "taints");
					out_open(o, GEN_MAP);
					out_kstr(o, "effect", "NoSchedule");
					out_kstr(o, "key",
					    "nvidia.com/gpu-unhealthy");
					gen_ktime(o, "timeAdded",
					    GEN_T0 + 5400);
					out_kstr(o, "value", "xid-79");
					out_close(o);
					out_close(o);
				}
				out_close(o);
				continue;
			}
			mix = &gen_mixes[gpu % GEN_NMIX];
			for (i = 0; i < mix->n; i++) {
				p = &gen_prof[mix->part[i].prof];
				gen_mig_name(dev, sizeof(dev), gpu,
				    mix->part[i].prof, mix->part[i].start);
				gen_uid(g, "mig", n->name, dev, id,
				    sizeof(id));
				snprintf(muuid, sizeof(muuid), "MIG-%s", id);
				out_open(o, GEN_MAP);
				gen_gpu_attrs(g, uuid, bus, root,
				    p->name, muuid);
				gen_caps(o, p->ctr, mix->part[i].start,
				    p->size);
				out_kstr(o, "name", dev);
				out_close(o);
			}
		}
		out_close(o);
		gen_slice_pool(g, n, GEN_DRIVER, 1);
		out_close(o);
		out_close(o);
		break;
	case L_DYN:
		/* <= 8 counter sets per slice, then one slice per GPU. */
		nc = (g->ngpu + 7) / 8;
		for (k = 0; k < nc; k++) {
			gen_slice_begin(g, n, GEN_DRIVER, k, t);
			gen_slice_pool(g, n, GEN_DRIVER, nc + g->ngpu);
			out_klist(o, "sharedCounters");
			for (j = 8 * k; j < g->ngpu && j < 8 * k + 8; j++) {
				snprintf(set, sizeof(set), "gpu-%d-counter-set",
				    g->order[j]);
				out_open(o, GEN_MAP);
				gen_counters(o, gen_total, 0xff);
				out_kstr(o, "name", set);
				out_close(o);
			}
			out_close(o);
			out_close(o);
			out_close(o);
		}
		for (j = 0; j < g->ngpu; j++) {
			gpu = g->order[j];
			snprintf(dev, sizeof(dev), "gpu-%d", gpu);
			gen_uid(g, "gpu", n->name, dev, id, sizeof(id));
			snprintf(uuid, sizeof(uuid), "GPU-%s", id);
			gen_pci(gpu, bus, sizeof(bus), root, sizeof(root));
			snprintf(set, sizeof(set), "gpu-%d-counter-set", gpu);
			gen_slice_begin(g, n, GEN_DRIVER, nc + j, t);
			out_klist(o, "devices");
			/* The full GPU: the 7g capacities, every counter. */
			out_open(o, GEN_MAP);
			gen_gpu_attrs(g, uuid, bus, root, NULL, NULL);
			gen_caps(o, gen_total, 0, 0);
			out_klist(o, "consumesCounters");
			out_open(o, GEN_MAP);
			out_kstr(o, "counterSet", set);
			gen_counters(o, gen_total, 0xff);
			out_close(o);
			out_close(o);
			out_kstr(o, "name", dev);
			out_close(o);
			for (i = 0; i < GEN_NPROF; i++) {
				p = &gen_prof[i];
				for (s = 0; s < GEN_NSLICE; s++) {
					if ((p->starts & (1u << s)) == 0)
						continue;
					gen_mig_name(dev, sizeof(dev), gpu, i,
					    s);
					out_open(o, GEN_MAP);
					gen_gpu_attrs(g, uuid, bus, root,
					    p->name, NULL);
					gen_caps(o, p->ctr, 0, 0);
					out_klist(o, "consumesCounters");
					out_open(o, GEN_MAP);
					out_kstr(o, "counterSet", set);
					gen_counters(o, p->ctr,
					    ((1u << p->size) - 1) << s);
					out_close(o);
					out_close(o);
					out_kstr(o, "name", dev);
					out_close(o);
				}
			}
			out_close(o);
			gen_slice_pool(g, n, GEN_DRIVER, nc + g->ngpu);
			out_close(o);
			out_close(o);
		}
		break;
	}
}

/* The example's second driver: two NICs next to gpu-0 and gpu-4. */
static void
gen_emit_nic_slice(struct gen *g, int ni)
{
	static const int	 nicbus[2] = { 0x19, 0x9b };
	struct gen_out		*o = g->out;
	const struct gen_node	*n = &g->nodes[ni];
	char			 bus[16], root[16], dev[16], scratch[16];
	int			 k;

	gen_slice_begin(g, n, GEN_NICDRIVER, 0, GEN_T0 + 160 + 10LL * ni);
	out_klist(o, "devices");
	for (k = 0; k < 2; k++) {
		snprintf(bus, sizeof(bus), "0000:%02x:00.0", nicbus[k]);
		gen_pci(4 * k, scratch, sizeof(scratch), root, sizeof(root));
		snprintf(dev, sizeof(dev), "nic-%d", k);
		out_open(o, GEN_MAP);
		out_kmap(o, "attributes");
		gen_attr(o, "linkSpeedGbps", "int", "400");
		gen_attr(o, "model", "string", "ConnectX-7");
		gen_attr(o, "resource.kubernetes.io/pciBusID", "string", bus);
		gen_attr(o, "resource.kubernetes.io/pcieRoot", "string",
		    root);
		out_close(o);
		out_kstr(o, "name", dev);
		out_close(o);
	}
	out_close(o);
	gen_slice_pool(g, n, GEN_NICDRIVER, 1);
	out_close(o);
	out_close(o);
}

static void
gen_emit_quota(struct gen *g, int i)
{
	struct gen_out		*o = g->out;
	const struct gen_ns	*ns = &g->ns[i];
	struct gen_meta		 m;
	const char		*part[2] = { "hard", "used" };
	const char *const	*sect;
	int			 k;

	memset(&m, 0, sizeof(m));
	m.kind = "ResourceQuota";
	m.name = "gpu-quota";
	m.ns = ns->name;
	m.created = GEN_T0 + 300 + i;
	gen_obj_begin(g, "v1", "ResourceQuota");
	gen_meta(g, &m);
	for (sect = (const char *const[]){ "spec", "status", NULL };
	    *sect != NULL; sect++) {
		if (g->apply && strcmp(*sect, "status") == 0)
			break;
		out_kmap(o, *sect);
		for (k = 0; k < 2; k++) {
			if (k == 1 && strcmp(*sect, "spec") == 0)
				break;
			out_kmap(o, part[k]);
			out_kfmt(o, "count/resourceclaims.resource.k8s.io",
			    "%ld", k == 0 ? ns->hard_claims : ns->nclaims);
			out_kfmt(o, "gpu.nvidia.com.deviceclass.resource.k8s.io"
			    "/devices", "%ld", k == 0 ? ns->hard[CLS_GPU] :
			    ns->used[CLS_GPU]);
			out_kfmt(o, "mig.nvidia.com.deviceclass.resource.k8s.io"
			    "/devices", "%ld", k == 0 ? ns->hard[CLS_MIG] :
			    ns->used[CLS_MIG]);
			out_close(o);
		}
		out_close(o);
	}
	out_close(o);
}

/* ResourceClaimSpec: spec.devices of a claim or a template. */
static void
gen_claim_spec(struct gen_out *o, const struct gen_req *req, int nreq,
    const char *match_attr)
{
	int	k;

	out_kmap(o, "devices");
	if (match_attr != NULL) {
		out_klist(o, "constraints");
		out_open(o, GEN_MAP);
		out_kstr(o, "matchAttribute", match_attr);
		out_klist(o, "requests");
		for (k = 0; k < nreq; k++)
			out_str(o, req[k].name);
		out_close(o);
		out_close(o);
		out_close(o);
	}
	out_klist(o, "requests");
	for (k = 0; k < nreq; k++) {
		out_open(o, GEN_MAP);
		out_kmap(o, "exactly");
		out_kstr(o, "allocationMode", "ExactCount");
		out_kint(o, "count", req[k].count);
		out_kstr(o, "deviceClassName", gen_cls_names[req[k].cls]);
		if (req[k].profile != NULL) {
			out_klist(o, "selectors");
			out_open(o, GEN_MAP);
			out_kmap(o, "cel");
			out_kfmt(o, "expression",
			    "device.attributes['%s'].profile == '%s'",
			    GEN_DRIVER, req[k].profile);
			out_close(o);
			out_close(o);
			out_close(o);
		}
		out_close(o);
		out_kstr(o, "name", req[k].name);
		out_close(o);
	}
	out_close(o);
	out_close(o);
}

static void
gen_emit_templates(struct gen *g, int i)
{
	struct gen_out		*o = g->out;
	const struct gen_ns	*ns = &g->ns[i];
	struct gen_meta		 m;
	struct gen_req		 r;
	char			 name[64];
	int			 b;

	for (b = 0; b <= GEN_NPROF; b++) {
		if ((ns->tmpl & (1u << b)) == 0)
			continue;
		memset(&r, 0, sizeof(r));
		r.name = "gpu";
		r.count = 1;
		if (b == 0) {
			r.cls = CLS_GPU;
			snprintf(name, sizeof(name), "gpu-template");
		} else {
			r.cls = CLS_MIG;
			r.profile = gen_prof[b - 1].name;
			snprintf(name, sizeof(name), "mig-%s-template",
			    gen_prof[b - 1].dname);
		}
		memset(&m, 0, sizeof(m));
		m.kind = "ResourceClaimTemplate";
		m.name = name;
		m.ns = ns->name;
		m.created = GEN_T0 + 400 + i;
		gen_obj_begin(g, "resource.k8s.io/v1",
		    "ResourceClaimTemplate");
		gen_meta(g, &m);
		out_kmap(o, "spec");
		out_kmap(o, "spec");
		gen_claim_spec(o, &r, 1, NULL);
		out_close(o);
		out_close(o);
		out_close(o);
	}
}

static void
gen_emit_claim(struct gen *g, const struct gen_claim *c)
{
	static const char *const	 annotations[] = {
		"resource.kubernetes.io/pod-claim-name", "gpu", NULL
	};
	struct gen_out			*o = g->out;
	const struct gen_ns		*ns = &g->ns[c->ns];
	const struct gen_node		*n;
	struct gen_meta			 m;
	char				 gname[80], uid[48];
	int				 k;

	/* --apply: the resourceclaim controller makes these from the Pod. */
	if (g->apply && c->templ)
		return;
	memset(&m, 0, sizeof(m));
	m.kind = "ResourceClaim";
	m.name = c->name;
	m.ns = ns->name;
	m.created = c->created + (c->templ ? 1 : 0);
	if (c->templ) {
		snprintf(gname, sizeof(gname), "%s-gpu-", c->pod);
		m.annotations = annotations;
		m.generate_name = gname;
		m.owner_api = "v1";
		m.owner_kind = "Pod";
		m.owner_name = c->pod;
	}
	if (!c->pending)
		m.finalizer = "resource.kubernetes.io/delete-protection";
	gen_obj_begin(g, "resource.k8s.io/v1", "ResourceClaim");
	gen_meta(g, &m);
	out_kmap(o, "spec");
	gen_claim_spec(o, c->req, c->nreq, c->match_attr);
	out_close(o);
	if (!c->pending && !g->apply) {
		n = &g->nodes[c->node];
		out_kmap(o, "status");
		out_kmap(o, "allocation");
		out_kmap(o, "devices");
		out_klist(o, "results");
		for (k = 0; k < c->nres; k++) {
			out_open(o, GEN_MAP);
			out_kstr(o, "device", c->res[k].device);
			out_kstr(o, "driver", c->res[k].cls == CLS_NIC ?
			    GEN_NICDRIVER : GEN_DRIVER);
			out_kstr(o, "pool", n->name);
			out_kstr(o, "request", c->req[c->res[k].req].name);
			out_close(o);
		}
		out_close(o);
		out_close(o);
		out_kmap(o, "nodeSelector");
		out_klist(o, "nodeSelectorTerms");
		out_open(o, GEN_MAP);
		out_klist(o, "matchFields");
		out_open(o, GEN_MAP);
		out_kstr(o, "key", "metadata.name");
		out_kstr(o, "operator", "In");
		out_klist(o, "values");
		out_str(o, n->name);
		out_close(o);
		out_close(o);
		out_close(o);
		out_close(o);
		out_close(o);
		out_close(o);
		out_close(o);
		gen_uid(g, "Pod", ns->name, c->pod, uid, sizeof(uid));
		out_klist(o, "reservedFor");
		out_open(o, GEN_MAP);
		out_kstr(o, "name", c->pod);
		out_kstr(o, "resource", "pods");
		out_kstr(o, "uid", uid);
		out_close(o);
		out_close(o);
		out_close(o);
	}
	out_close(o);
}

static void
gen_emit_pod(struct gen *g, const struct gen_claim *c)
{
	static const char *const	 ready[5] = {
		"PodReadyToStartContainers", "Initialized", "Ready",
		"ContainersReady", "PodScheduled"
	};
	struct gen_out			*o = g->out;
	const struct gen_ns		*ns = &g->ns[c->ns];
	struct gen_node			*n = NULL;
	struct gen_meta			 m;
	const char			*labels[3];
	char				 tmpl[64], ip[32], hostip[32];
	char				 hex[80], msg[256], img[160];
	long long			 t = c->created;
	int				 k, ni = 0;

	if (!c->pending && !g->apply) {
		ni = c->node;
		n = &g->nodes[ni];
	}
	labels[0] = "app.kubernetes.io/name";
	labels[1] = c->workload;
	labels[2] = NULL;
	memset(&m, 0, sizeof(m));
	m.kind = "Pod";
	m.name = c->pod;
	m.ns = ns->name;
	m.labels = labels;
	m.created = t;
	m.generation = 1;
	gen_obj_begin(g, "v1", "Pod");
	gen_meta(g, &m);

	out_kmap(o, "spec");
	out_klist(o, "containers");
	out_open(o, GEN_MAP);
	out_kstr(o, "image", g->apply ? GEN_APPLY_IMAGE : c->image);
	out_kstr(o, "imagePullPolicy", "IfNotPresent");
	out_kstr(o, "name", "main");
	out_kmap(o, "resources");
	out_klist(o, "claims");
	out_open(o, GEN_MAP);
	out_kstr(o, "name", "gpu");
	out_close(o);
	out_close(o);
	out_close(o);
	out_kstr(o, "terminationMessagePath", "/dev/termination-log");
	out_kstr(o, "terminationMessagePolicy", "File");
	out_close(o);
	out_close(o);
	out_kstr(o, "dnsPolicy", "ClusterFirst");
	out_kbool(o, "enableServiceLinks", 1);
	if (n != NULL)
		out_kstr(o, "nodeName", n->name);
	out_kstr(o, "preemptionPolicy", "PreemptLowerPriority");
	out_kint(o, "priority", 0);
	out_klist(o, "resourceClaims");
	out_open(o, GEN_MAP);
	out_kstr(o, "name", "gpu");
	if (c->templ) {
		if (c->req[0].cls == CLS_GPU)
			snprintf(tmpl, sizeof(tmpl), "gpu-template");
		else
			snprintf(tmpl, sizeof(tmpl), "mig-%s-template",
			    gen_prof[c->req[0].prof].dname);
		out_kstr(o, "resourceClaimTemplateName", tmpl);
	} else
		out_kstr(o, "resourceClaimName", c->name);
	out_close(o);
	out_close(o);
	out_kstr(o, "restartPolicy", "Always");
	out_kstr(o, "schedulerName", "default-scheduler");
	out_kmap(o, "securityContext");
	out_close(o);
	out_kstr(o, "serviceAccount", "default");
	out_kstr(o, "serviceAccountName", "default");
	out_kint(o, "terminationGracePeriodSeconds", 30);
	out_klist(o, "tolerations");
	for (k = 0; k < 2; k++) {
		out_open(o, GEN_MAP);
		out_kstr(o, "effect", "NoExecute");
		out_kstr(o, "key", k == 0 ? "node.kubernetes.io/not-ready" :
		    "node.kubernetes.io/unreachable");
		out_kstr(o, "operator", "Exists");
		out_kint(o, "tolerationSeconds", 300);
		out_close(o);
	}
	out_close(o);
	out_close(o);
	if (g->apply) {
		/* The scheduler binds it; no kubelet ever writes status. */
		out_close(o);
		return;
	}

	out_kmap(o, "status");
	out_klist(o, "conditions");
	if (n == NULL) {
		out_open(o, GEN_MAP);
		out_key(o, "lastProbeTime");
		out_null(o);
		gen_ktime(o, "lastTransitionTime", t + 2);
		snprintf(msg, sizeof(msg), "0/%d nodes are available: %d "
		    "cannot allocate all claims. preemption: 0/%d nodes are "
		    "available: %d Preemption is not helpful for scheduling.",
		    g->nnodes, g->nnodes, g->nnodes, g->nnodes);
		out_kstr(o, "message", msg);
		out_kint(o, "observedGeneration", 1);
		out_kstr(o, "reason", "Unschedulable");
		out_kstr(o, "status", "False");
		out_kstr(o, "type", "PodScheduled");
		out_close(o);
	} else
		for (k = 0; k < 5; k++) {
			out_open(o, GEN_MAP);
			out_key(o, "lastProbeTime");
			out_null(o);
			gen_ktime(o, "lastTransitionTime",
			    t + (k == 4 ? 2 : k < 2 ? 5 : 25));
			out_kint(o, "observedGeneration", 1);
			out_kstr(o, "status", "True");
			out_kstr(o, "type", ready[k]);
			out_close(o);
		}
	out_close(o);
	if (n != NULL) {
		out_klist(o, "containerStatuses");
		out_open(o, GEN_MAP);
		gen_hex(g, ns->name, c->pod, hex, sizeof(hex));
		out_kfmt(o, "containerID", "containerd://%s", hex);
		out_kstr(o, "image", c->image);
		snprintf(img, sizeof(img), "%s", c->image);
		img[strcspn(img, ":")] = '\0';
		gen_hex(g, "image", c->image, hex, sizeof(hex));
		out_kfmt(o, "imageID", "%s@sha256:%s", img, hex);
		out_kmap(o, "lastState");
		out_close(o);
		out_kstr(o, "name", "main");
		out_kbool(o, "ready", 1);
		out_kint(o, "restartCount", 0);
		out_kbool(o, "started", 1);
		out_kmap(o, "state");
		out_kmap(o, "running");
		gen_ktime(o, "startedAt", t + 24);
		out_close(o);
		out_close(o);
		out_close(o);
		out_close(o);
		snprintf(hostip, sizeof(hostip), "10.0.%d.%d",
		    (ni / 250) % 256, ni % 250 + 4);
		out_kstr(o, "hostIP", hostip);
		out_klist(o, "hostIPs");
		out_open(o, GEN_MAP);
		out_kstr(o, "ip", hostip);
		out_close(o);
		out_close(o);
	}
	out_kint(o, "observedGeneration", 1);
	out_kstr(o, "phase", n != NULL ? "Running" : "Pending");
	if (n != NULL) {
		snprintf(ip, sizeof(ip), "10.%d.%d.%d", 64 + (ni / 256) % 64,
		    ni % 256, n->npods % 250 + 2);
		n->npods++;
		out_kstr(o, "podIP", ip);
		out_klist(o, "podIPs");
		out_open(o, GEN_MAP);
		out_kstr(o, "ip", ip);
		out_close(o);
		out_close(o);
	}
	out_kstr(o, "qosClass", "BestEffort");
	if (c->templ) {
		out_klist(o, "resourceClaimStatuses");
		out_open(o, GEN_MAP);
		out_kstr(o, "name", "gpu");
		out_kstr(o, "resourceClaimName", c->name);
		out_close(o);
		out_close(o);
	}
	if (n != NULL)
		gen_ktime(o, "startTime", t + 5);
	out_close(o);
	out_close(o);
}

static int
gen_emit(struct gen *g)
{
	struct gen_out	*o = g->out;
	long		 i;
	int		 k;

	out_open(o, GEN_MAP);
	out_kstr(o, "apiVersion", "v1");
	out_klist(o, "items");
	for (k = 0; k < g->nns; k++)
		gen_emit_namespace(g, k);
	for (k = 0; k < g->nnodes; k++)
		gen_emit_node(g, k);
	gen_emit_class(g, 0, "gpu.nvidia.com", "nvidia.com/gpu");
	gen_emit_class(g, 1, "mig.nvidia.com", NULL);
	if (g->has_nic)
		gen_emit_class(g, 2, GEN_NICDRIVER, NULL);
	for (k = 0; k < g->nnodes; k++) {
		gen_emit_slices(g, k);
		if (g->nodes[k].nic)
			gen_emit_nic_slice(g, k);
		if (o->err != 0)
			break;
	}
	for (k = 0; k < g->nns; k++)
		gen_emit_quota(g, k);
	for (k = 0; k < g->nns; k++)
		gen_emit_templates(g, k);
	for (i = 0; i < g->nclaims && o->err == 0; i++)
		gen_emit_claim(g, &g->claims[i]);
	for (i = 0; i < g->nclaims && o->err == 0; i++)
		gen_emit_pod(g, &g->claims[i]);
	out_close(o);
	out_kstr(o, "kind", "List");
	out_kmap(o, "metadata");
	out_kstr(o, "resourceVersion", "");
	out_close(o);
	out_close(o);
	out_flush(o);
	return (o->err == 0 ? GEN_OK : GEN_E_IO);
}

/* ------------------------------------------------------------------ */

static void
gen_usage(FILE *fp)
{
	fprintf(fp,
"usage: dra-gen-fleet [options]\n"
"\n"
"Write a synthetic GPU cluster (NVIDIA DRA driver gpu.nvidia.com) as one\n"
"Kubernetes List: Namespaces, Nodes, DeviceClasses, ResourceSlices,\n"
"ResourceQuotas, ResourceClaimTemplates, ResourceClaims and Pods.\n"
"\n"
"options:\n"
"  --nodes N              nodes (default 4, at most %d)\n"
"  --gpus-per-node G      GPUs per node (default 8, at most %d)\n"
"  --model h100           GPU model: H100 80GB HBM3 (the only one)\n"
"  --layout L             full | dynamic-mig | static-mig | mixed\n"
"                         (default full; mixed cycles the three per node)\n"
"  --namespaces K         namespaces team-a, team-b, ... (default 3)\n"
"  --claims C             ResourceClaims, one Pod each (default 6)\n"
"  --pending-fraction F   share of claims left pending (default 0.1)\n"
"  --seed S               seed; the output is a function of it (default 1)\n"
"  --format yaml|json     output format (default yaml)\n"
"  -o, --output FILE      write to FILE instead of stdout\n"
"  --example              the hand-tuned 4-node demo cluster; ignores the\n"
"                         sizing options\n"
"  --apply                write the same cluster as the objects a user\n"
"                         creates (no status but the Nodes', no server\n"
"                         fields, no bindings or allocations, no claims\n"
"                         made from templates), for kubectl apply\n"
"  -h, --help             this text\n"
"\n"
"exit status: 0 ok, 1 write error, 2 usage error\n",
	    GEN_MAXNODES, GEN_MAXGPU);
}

static int
gen_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("dra-gen-fleet: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return (GEN_E_IO);
}

static int
gen_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		gen_error("option '%s': '%s' is not a number from %ld to %ld",
		    opt, s, min, max);
		return (-1);
	}
	*out = v;
	return (0);
}

int
main(int argc, char *argv[])
{
	static const char *const	 valopts[] = {
		"--nodes", "--gpus-per-node", "--model", "--layout",
		"--namespaces", "--claims", "--pending-fraction", "--seed",
		"--format", "--output", "-o", NULL
	};
	static struct gen_out		 out;
	struct gen			 g;
	const char			*arg, *val, *outfile = NULL, *eq;
	char				 name[32], *end;
	size_t				 len;
	long				 v;
	int				 i, k, rc;

	memset(&g, 0, sizeof(g));
	g.out = &out;
	g.seed = 1;
	g.nnodes = 4;
	g.ngpu = 8;
	g.layout = L_FULL;
	g.nns = 3;
	g.nclaims = 6;
	g.pending = 0.1;
	g.rv = 100000;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			gen_usage(stdout);
			return (GEN_OK);
		}
		if (strcmp(arg, "--example") == 0) {
			g.example = 1;
			continue;
		}
		if (strcmp(arg, "--apply") == 0) {
			g.apply = 1;
			continue;
		}
		eq = strchr(arg, '=');
		len = eq != NULL && strncmp(arg, "--", 2) == 0 ?
		    (size_t)(eq - arg) : strlen(arg);
		for (k = 0; valopts[k] != NULL; k++)
			if (strlen(valopts[k]) == len &&
			    strncmp(arg, valopts[k], len) == 0)
				break;
		if (valopts[k] == NULL) {
			gen_error("unknown option '%s'", arg);
			gen_usage(stderr);
			return (GEN_E_USAGE);
		}
		snprintf(name, sizeof(name), "%s", valopts[k]);
		if (len < strlen(arg))
			val = arg + len + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			gen_error("option '%s' needs a value", name);
			return (GEN_E_USAGE);
		}
		if (strcmp(name, "--nodes") == 0) {
			if (gen_parse_long(name, val, 1, GEN_MAXNODES, &v))
				return (GEN_E_USAGE);
			g.nnodes = (int)v;
		} else if (strcmp(name, "--gpus-per-node") == 0) {
			if (gen_parse_long(name, val, 1, GEN_MAXGPU, &v))
				return (GEN_E_USAGE);
			g.ngpu = (int)v;
		} else if (strcmp(name, "--namespaces") == 0) {
			if (gen_parse_long(name, val, 1, GEN_MAXNS, &v))
				return (GEN_E_USAGE);
			g.nns = (int)v;
		} else if (strcmp(name, "--claims") == 0) {
			if (gen_parse_long(name, val, 0, GEN_MAXCLAIMS, &v))
				return (GEN_E_USAGE);
			g.nclaims = v;
		} else if (strcmp(name, "--seed") == 0) {
			errno = 0;
			g.seed = strtoull(val, &end, 10);
			if (errno != 0 || end == val || *end != '\0' ||
			    val[0] == '-') {
				gen_error("option '--seed': '%s' is not an "
				    "unsigned number", val);
				return (GEN_E_USAGE);
			}
		} else if (strcmp(name, "--pending-fraction") == 0) {
			errno = 0;
			g.pending = strtod(val, &end);
			if (errno != 0 || end == val || *end != '\0' ||
			    !(g.pending >= 0.0 && g.pending <= 1.0)) {
				gen_error("option '--pending-fraction': '%s' "
				    "is not a number from 0 to 1", val);
				return (GEN_E_USAGE);
			}
		} else if (strcmp(name, "--model") == 0) {
			if (strcmp(val, "h100") != 0) {
				gen_error("option '--model': '%s' is not "
				    "supported (only h100)", val);
				return (GEN_E_USAGE);
			}
		} else if (strcmp(name, "--layout") == 0) {
			for (k = 0; k < 4; k++)
				if (strcmp(val, gen_layout_names[k]) == 0)
					break;
			if (k == 4) {
				gen_error("option '--layout': '%s' is not "
				    "full, dynamic-mig, static-mig or mixed",
				    val);
				return (GEN_E_USAGE);
			}
			g.layout = k;
		} else if (strcmp(name, "--format") == 0) {
			if (strcmp(val, "yaml") == 0)
				out.json = 0;
			else if (strcmp(val, "json") == 0)
				out.json = 1;
			else {
				gen_error("option '--format': '%s' is not "
				    "yaml or json", val);
				return (GEN_E_USAGE);
			}
		} else
			outfile = val;
	}

	if (g.example) {
		g.nnodes = 4;
		g.ngpu = 8;
		g.nns = 3;
		g.nclaims = GEN_NEXAMPLE;
		g.layout = L_FULL;
	}
	g.rng = g.seed;
	if (gen_setup(&g) != GEN_OK)
		return (GEN_E_IO);
	if (g.example)
		gen_build_example(&g);
	else
		gen_build_random(&g);
	gen_quota(&g);

	if (outfile != NULL) {
		out.fp = fopen(outfile, "w");
		if (out.fp == NULL)
			return (gen_error("cannot open '%s': %s", outfile,
			    strerror(errno)));
	} else
		out.fp = stdout;
	rc = gen_emit(&g);
	if (fflush(out.fp) != 0 && rc == GEN_OK)
		rc = GEN_E_IO;
	if (outfile != NULL && fclose(out.fp) != 0)
		rc = GEN_E_IO;
	if (rc != GEN_OK)
		gen_error("cannot write '%s': %s",
		    outfile != NULL ? outfile : "stdout",
		    strerror(out.err != 0 ? out.err : errno));
	free(g.nodes);
	free(g.gpus);
	free(g.ns);
	free(g.claims);
	return (rc);
}

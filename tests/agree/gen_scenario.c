/*
 * dra-gen-scenario: one random but realistic DRA scenario for the
 * agreement test between `kubectl dra why` and kube-scheduler
 * (tests/agree/run).
 *
 *   dra-gen-scenario --seed N [--index I] [-o FILE]
 *
 * Writes a YAML stream (documents separated by ---) of the objects a
 * user and the drivers would create, valid for kube-apiserver v1.37.2
 * with strict field validation.  The output is a pure function of
 * (seed, index).  In stream order:
 *
 *   Namespace   agree, and agree-admin with the label
 *               resource.kubernetes.io/admin-access: "true"
 *   Node        1-4 nodes node-a.., labels kubernetes.io/hostname, os,
 *               arch, nvidia.com/gpu.product, agree.kubectl-dra/rack;
 *               a status (Ready, cpu 8, memory 32Gi, pods 110) that the
 *               runner writes through nodes/status
 *   DeviceClass 1-3 of: gpu.nvidia.com, mig.nvidia.com, nic.example.com,
 *               gpu-large (quantity compareTo), gpu-any (driver only),
 *               h100 (.?orValue + startsWith); CEL as NVIDIA's Helm chart
 *   ResourceSlice, per node, driver gpu.nvidia.com, pool = node name:
 *               1-4 GPUs, H100 80GB or A100 40GB (A100: full GPUs only),
 *               in one of three layouts:
 *               - full: GPUs with productName, uuid, index, pciBusID,
 *                 pcieRoot, versions, capacity memory; in one slice, or
 *                 two slices of one pool (resourceSliceCount 2), or a
 *                 second pool <node>-b;
 *               - dynamic MIG, as dra-gen-fleet --layout dynamic-mig
 *                 publishes it: a counter slice with one counter set per
 *                 GPU (multiprocessors, copy-engines, ..., memory,
 *                 memory-slice-0..7), then one slice per GPU with the
 *                 full GPU (consumes every counter) and its 25 MIG
 *                 placements (each consumes its engines, memory and
 *                 memory slices);
 *               - static MIG: pre-made partitions of fixed mixes;
 *               some GPUs tainted (NoSchedule, rarely NoExecute or None);
 *               a quarter of the nodes on an older driver (570.86.15,
 *               CUDA 12.8); rarely a dynamic MIG pool that is incomplete
 *               (a GPU's slice not published yet), or a full-GPU pool at
 *               generation 2 with its generation-1 slice still there
 *               (with a gpu-7 that has gone);
 *               driver nic.example.com on some nodes: 1-2 NICs whose
 *               pcieRoot is shared with GPUs 0/1 or 2/3, or with none;
 *               on some of them shareable (allowMultipleAllocations) with
 *               consumable bandwidth (requestPolicy default 100G, range
 *               from 50G in steps of 50G).
 *   ResourceClaim + Pod
 *               0-3 existing allocations (label agree.kubectl-dra/role:
 *               existing): a claim and a Pod <claim>-pod using it,
 *               sometimes pinned to a node by nodeSelector; the runner
 *               lets the real scheduler allocate them first, in order.
 *   ResourceClaim
 *               1-5 new claims (label agree.kubectl-dra/role: new), each
 *               evaluated alone: 1-3 requests, count 1-3 or
 *               allocationMode All, request selectors, firstAvailable
 *               with 2-3 subrequests, matchAttribute / distinctAttribute
 *               constraints (pcieRoot, productName, pciBusID),
 *               tolerations, bandwidth capacity requests on shared
 *               NICs, semver comparisons (cudaComputeCapability,
 *               driverVersion), more CEL (matches, in, cel.bind,
 *               quantity and semver methods, arithmetic, ternaries,
 *               exists), rarely adminAccess (namespace agree-admin)
 *               and rarely a selector that fails at run time on some
 *               devices (a missing attribute without .? or has()).
 *
 * Every object carries the label agree.kubectl-dra/scenario: S-I.
 * Exit status: 0 ok, 1 write error, 2 usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXNODES	4
#define MAXGPUS		4
#define NSLICE		8
#define GPU_DRIVER	"gpu.nvidia.com"
#define NIC_DRIVER	"nic.example.com"
#define TAINT_KEY	"nvidia.com/gpu-unhealthy"

/* ------------------------------------------------------------ random -- */

static uint64_t rng_state;

static uint64_t
rng_next(void)
{
	uint64_t	z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n). */
static int
rnd(int n)
{
	return n <= 1 ? 0 : (int)(rng_next() % (uint64_t)n);
}

/* True with probability pct per cent. */
static int
chance(int pct)
{
	return rnd(100) < pct;
}

/* ------------------------------------------------------------ output -- */

static FILE	*out;

static void
emit(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------- model -- */

/* H100 80GB MIG profiles (NVIDIA-MIG.md 1.7; bench/gen/gen_fleet.c). */
enum { C_SM, C_CE, C_DEC, C_ENC, C_JPEG, C_OFA, C_MEM, NCTR };

struct profile {
	const char	*name;		/* 1g.10gb+me */
	const char	*dname;		/* 1g10gb-me */
	int		 giid;
	int		 size;		/* memory slices */
	unsigned	 starts;	/* bit k: a placement may start at k */
	int		 ctr[NCTR];
};

static const struct profile profs[] = {
	{ "1g.10gb", "1g10gb", 19, 1, 0x7f, { 16, 1, 1, 0, 1, 0, 9984 } },
	{ "1g.10gb+me", "1g10gb-me", 20, 1, 0x7f, { 16, 1, 1, 0, 1, 1, 9984 } },
	{ "1g.20gb", "1g20gb", 15, 2, 0x55, { 26, 1, 1, 0, 1, 0, 20096 } },
	{ "2g.20gb", "2g20gb", 14, 2, 0x15, { 32, 2, 2, 0, 2, 0, 20096 } },
	{ "3g.40gb", "3g40gb", 9, 4, 0x11, { 60, 3, 3, 0, 3, 0, 40448 } },
	{ "4g.40gb", "4g40gb", 5, 4, 0x01, { 64, 4, 4, 0, 4, 0, 40448 } },
	{ "7g.80gb", "7g80gb", 0, 8, 0x01, { 132, 8, 7, 0, 7, 1, 81152 } },
};
#define NPROF	((int)(sizeof(profs) / sizeof(profs[0])))
static const int total[NCTR] = { 132, 8, 7, 0, 7, 1, 81152 };

/* Static MIG mixes: (profile, start) in device-name order. */
struct part {
	int	prof;
	int	start;
};
static const struct {
	int		n;
	struct part	p[7];
} mixes[] = {
	{ 4, { { 0, 2 }, { 0, 3 }, { 3, 0 }, { 4, 4 } } },
	{ 2, { { 4, 4 }, { 5, 0 } } },
	{ 7, { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, 5 },
	    { 0, 6 } } },
	{ 4, { { 2, 6 }, { 3, 0 }, { 3, 2 }, { 3, 4 } } },
	{ 2, { { 4, 0 }, { 4, 4 } } },
};
#define NMIX	((int)(sizeof(mixes) / sizeof(mixes[0])))

static const int pcibus[8] = { 0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb };

enum { M_H100, M_A100 };
static const char *const product[] = {
	"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB"
};
static const char *const prodlabel[] = {
	"NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-40GB"
};
static const char *const arch[] = { "Hopper", "Ampere" };
static const char *const cc[] = { "9.0.0", "8.0.0" };
static const char *const fullmem[] = { "81559Mi", "40960Mi" };

enum { L_FULL, L_DYN, L_STATIC };
enum { S_ONE, S_TWO_SLICES, S_TWO_POOLS };	/* full layout split */
enum { T_NONE, T_NOSCHED, T_NOEXEC, T_EFFNONE };
static const char *const effect[] = { "", "NoSchedule", "NoExecute", "None" };

struct node {
	char	name[16];
	int	model;
	int	layout;
	int	ngpu;
	int	split;
	int	mix0;		/* static MIG: mix of GPU 0 */
	int	taint[MAXGPUS];
	int	nnic;
	int	nicroot[2];	/* GPU whose root a NIC shares; -1: none */
	int	nicshared;	/* NICs shareable: consumable bandwidth */
	int	rack;
	int	driver;		/* index into driver_version */
	int	incomplete;	/* dynamic MIG: one device slice missing */
	int	stale;		/* full: an older generation is still there */
};
static const char *const driver_version[] = { "580.95.5", "570.86.15" };

static struct node	nodes[MAXNODES];
static int		nnodes;
static int		any_taint, any_nic, any_mig, any_a100, any_shared;
static char		scen[64];

/* Device classes. */
enum { K_GPU, K_MIG, K_NIC, K_LARGE, K_ANY, K_H100, NCLASS };
static const char *const class_name[NCLASS] = {
	"gpu.nvidia.com", "mig.nvidia.com", "nic.example.com", "gpu-large",
	"gpu-any", "h100"
};
static const char *const class_cel[NCLASS] = {
	"device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].type == 'gpu'",
	"device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].type == 'mig'",
	"device.driver == 'nic.example.com'",
	"device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].type == 'gpu' && "
	    "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('60Gi')) >= 0",
	"device.driver == 'gpu.nvidia.com'",
	"device.driver == 'gpu.nvidia.com' && "
	    "device.attributes['gpu.nvidia.com'].?productName.orValue('')"
	    ".startsWith('NVIDIA H100')",
};
static int	have_class[NCLASS];
static int	classes[NCLASS], nclasses;

static void
pci(int gpu, char *bus, size_t bs, char *root, size_t rs)
{
	snprintf(bus, bs, "0000:%02x:00.0", pcibus[gpu]);
	/* GPUs 0,1 and 2,3 share a PCIe root port. */
	snprintf(root, rs, "pci0000:%02x", pcibus[gpu & ~1] - 1);
}

static void
uuid_of(const char *node, int gpu, char *buf, size_t bs)
{
	uint64_t	h = 1469598103934665603ULL;
	const char	*p;

	for (p = scen; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (p = node; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h = (h ^ (unsigned)gpu) * 1099511628211ULL;
	snprintf(buf, bs, "GPU-%08" PRIx32 "-%04" PRIx32 "-%04" PRIx32
	    "-%012" PRIx64, (uint32_t)(h >> 32), (uint32_t)(h >> 16) & 0xffff,
	    (uint32_t)h & 0xffff, (uint64_t)((h * 31) & 0xffffffffffffULL));
}

/* ----------------------------------------------------------- objects -- */

static void
doc(const char *apiversion, const char *kind)
{
	emit("---\napiVersion: %s\nkind: %s\n", apiversion, kind);
}

static void
meta(const char *name, const char *ns, const char *extra_labels)
{
	emit("metadata:\n  name: %s\n", name);
	if (ns != NULL)
		emit("  namespace: %s\n", ns);
	emit("  labels:\n    agree.kubectl-dra/scenario: \"%s\"\n", scen);
	if (extra_labels != NULL)
		emit("%s", extra_labels);
}

static void
emit_namespaces(void)
{
	doc("v1", "Namespace");
	meta("agree", NULL, NULL);
	doc("v1", "Namespace");
	meta("agree-admin", NULL,
	    "    resource.kubernetes.io/admin-access: \"true\"\n");
}

static void
emit_nodes(void)
{
	char	labels[1024];
	int	i;

	for (i = 0; i < nnodes; i++) {
		const struct node *n = &nodes[i];

		snprintf(labels, sizeof(labels),
		    "    kubernetes.io/hostname: %s\n"
		    "    kubernetes.io/os: linux\n"
		    "    kubernetes.io/arch: amd64\n"
		    "    nvidia.com/gpu.product: %s\n"
		    "    nvidia.com/gpu.count: \"%d\"\n"
		    "    agree.kubectl-dra/rack: rack-%d\n",
		    n->name, prodlabel[n->model], n->ngpu, n->rack);
		doc("v1", "Node");
		meta(n->name, NULL, labels);
		emit("status:\n"
		    "  capacity: {cpu: \"8\", memory: 32Gi, pods: \"110\"}\n"
		    "  allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}\n"
		    "  conditions:\n"
		    "  - type: Ready\n    status: \"True\"\n"
		    "    reason: KubeletReady\n"
		    "    message: simulated by tests/agree/run\n");
	}
}

static void
emit_classes(void)
{
	int	i, k;

	for (i = 0; i < nclasses; i++) {
		k = classes[i];
		doc("resource.k8s.io/v1", "DeviceClass");
		meta(class_name[k], NULL, NULL);
		emit("spec:\n  selectors:\n  - cel:\n      expression: \"%s\"\n",
		    class_cel[k]);
		if (k == K_GPU)
			emit("  extendedResourceName: nvidia.com/gpu\n");
	}
}

static void
slice_gen(const struct node *n, const char *name, const char *driver,
    const char *pool, int generation, int count)
{
	doc("resource.k8s.io/v1", "ResourceSlice");
	meta(name, NULL, NULL);
	emit("spec:\n  driver: %s\n  nodeName: %s\n"
	    "  pool:\n    name: %s\n    generation: %d\n"
	    "    resourceSliceCount: %d\n", driver, n->name, pool, generation,
	    count);
}

/* A node's pools are at generation 2 when an older one is left over. */
static void
slice_begin(const struct node *n, const char *name, const char *driver,
    const char *pool, int count)
{
	slice_gen(n, name, driver, pool,
	    n->stale && strcmp(driver, GPU_DRIVER) == 0 ? 2 : 1, count);
}

static void
emit_taint(const struct node *n, int gpu)
{
	if (n->taint[gpu] == T_NONE)
		return;
	emit("    taints:\n    - key: %s\n      value: xid-79\n"
	    "      effect: %s\n", TAINT_KEY, effect[n->taint[gpu]]);
}

static void
emit_gpu_attrs(const struct node *n, int gpu, const struct profile *p,
    int full_index)
{
	char	uuid[64], bus[16], root[16];

	uuid_of(n->name, gpu, uuid, sizeof(uuid));
	pci(gpu, bus, sizeof(bus), root, sizeof(root));
	emit("    attributes:\n"
	    "      architecture: {string: %s}\n"
	    "      brand: {string: Nvidia}\n"
	    "      cudaComputeCapability: {version: %s}\n"
	    "      cudaDriverVersion: {version: %s}\n"
	    "      driverVersion: {version: %s}\n",
	    arch[n->model], cc[n->model], n->driver ? "12.8.0" : "13.0.0",
	    driver_version[n->driver]);
	if (full_index)
		emit("      index: {int: %d}\n", gpu);
	if (p != NULL)
		emit("      parentUUID: {string: %s}\n", uuid);
	emit("      productName: {string: %s}\n", product[n->model]);
	if (p != NULL)
		emit("      profile: {string: \"%s\"}\n", p->name);
	emit("      resource.kubernetes.io/pciBusID: {string: \"%s\"}\n"
	    "      resource.kubernetes.io/pcieRoot: {string: %s}\n"
	    "      type: {string: %s}\n", bus, root, p != NULL ? "mig" : "gpu");
	if (p == NULL)
		emit("      uuid: {string: %s}\n", uuid);
}

static void
emit_caps(const int *c, int legacy_start, int legacy_n)
{
	int	i;

	emit("    capacity:\n"
	    "      copyEngines: {value: \"%d\"}\n"
	    "      decoders: {value: \"%d\"}\n"
	    "      encoders: {value: \"%d\"}\n"
	    "      jpegEngines: {value: \"%d\"}\n"
	    "      memory: {value: %dMi}\n",
	    c[C_CE], c[C_DEC], c[C_ENC], c[C_JPEG], c[C_MEM]);
	for (i = legacy_start; i < legacy_start + legacy_n; i++)
		emit("      memorySlice%d: {value: \"1\"}\n", i);
	emit("      multiprocessors: {value: \"%d\"}\n"
	    "      ofaEngines: {value: \"%d\"}\n", c[C_SM], c[C_OFA]);
}

static void
emit_counters(const char *indent, const int *c, unsigned slices)
{
	int	i;

	emit("%scounters:\n", indent);
	emit("%s  copy-engines: {value: \"%d\"}\n", indent, c[C_CE]);
	emit("%s  decoders: {value: \"%d\"}\n", indent, c[C_DEC]);
	emit("%s  encoders: {value: \"%d\"}\n", indent, c[C_ENC]);
	emit("%s  jpeg-engines: {value: \"%d\"}\n", indent, c[C_JPEG]);
	emit("%s  memory: {value: %dMi}\n", indent, c[C_MEM]);
	for (i = 0; i < NSLICE; i++)
		if (slices & (1u << i))
			emit("%s  memory-slice-%d: {value: \"1\"}\n", indent, i);
	emit("%s  multiprocessors: {value: \"%d\"}\n", indent, c[C_SM]);
	emit("%s  ofa-engines: {value: \"%d\"}\n", indent, c[C_OFA]);
}

static void
emit_full_gpu(const struct node *n, int gpu)
{
	emit("  - name: gpu-%d\n", gpu);
	emit_gpu_attrs(n, gpu, NULL, 1);
	emit("    capacity:\n      memory: {value: %s}\n", fullmem[n->model]);
	if (gpu < MAXGPUS)
		emit_taint(n, gpu);
}

static void
emit_node_slices(const struct node *n)
{
	char	name[320], pool[320];
	int	g, i, s, half;

	switch (n->layout) {
	case L_FULL:
		if (n->stale) {
			/*
			 * Generation 1, replaced by 2 but not deleted yet: a
			 * GPU that has since gone (gpu-7) and the old names.
			 */
			snprintf(name, sizeof(name), "%s-gpu-old", n->name);
			slice_gen(n, name, GPU_DRIVER, n->name, 1, 1);
			emit("  devices:\n");
			for (g = 0; g < n->ngpu; g++)
				emit_full_gpu(n, g);
			emit_full_gpu(n, 7);
		}
		half = (n->ngpu + 1) / 2;
		if (n->split == S_ONE) {
			snprintf(name, sizeof(name), "%s-gpu-0", n->name);
			slice_begin(n, name, GPU_DRIVER, n->name, 1);
			emit("  devices:\n");
			for (g = 0; g < n->ngpu; g++)
				emit_full_gpu(n, g);
			break;
		}
		for (s = 0; s < 2; s++) {
			snprintf(name, sizeof(name), "%s-gpu-%d", n->name, s);
			if (n->split == S_TWO_POOLS && s == 1)
				snprintf(pool, sizeof(pool), "%s-b", n->name);
			else
				snprintf(pool, sizeof(pool), "%s", n->name);
			slice_begin(n, name, GPU_DRIVER, pool,
			    n->split == S_TWO_SLICES ? 2 : 1);
			emit("  devices:\n");
			for (g = s == 0 ? 0 : half;
			    g < (s == 0 ? half : n->ngpu); g++)
				emit_full_gpu(n, g);
		}
		break;
	case L_STATIC:
		snprintf(name, sizeof(name), "%s-gpu-0", n->name);
		slice_begin(n, name, GPU_DRIVER, n->name, 1);
		emit("  devices:\n");
		for (g = 0; g < n->ngpu; g++) {
			int m = (n->mix0 + g) % NMIX;

			for (i = 0; i < mixes[m].n; i++) {
				const struct profile *p = &profs[mixes[m].p[i].prof];
				int st = mixes[m].p[i].start;
				char uuid[64];

				emit("  - name: gpu-%d-mig-%s-%d-%d\n", g,
				    p->dname, p->giid, st);
				emit_gpu_attrs(n, g, p, 0);
				uuid_of(n->name, 100 + 10 * g + i, uuid,
				    sizeof(uuid));
				emit("      uuid: {string: MIG-%s}\n", uuid + 4);
				emit_caps(p->ctr, st, p->size);
				emit_taint(n, g);
			}
		}
		break;
	case L_DYN:
		snprintf(name, sizeof(name), "%s-gpu-0", n->name);
		/* incomplete: a GPU's slice is not published yet. */
		slice_begin(n, name, GPU_DRIVER, n->name,
		    n->ngpu + 1 + n->incomplete);
		emit("  sharedCounters:\n");
		for (g = 0; g < n->ngpu; g++) {
			emit("  - name: gpu-%d-counter-set\n", g);
			emit_counters("    ", total, 0xff);
		}
		for (g = 0; g < n->ngpu; g++) {
			snprintf(name, sizeof(name), "%s-gpu-%d", n->name, g + 1);
			slice_begin(n, name, GPU_DRIVER, n->name,
			    n->ngpu + 1 + n->incomplete);
			emit("  devices:\n");
			/* The full GPU consumes every counter. */
			emit("  - name: gpu-%d\n", g);
			emit_gpu_attrs(n, g, NULL, 1);
			emit_caps(total, 0, 0);
			emit("    consumesCounters:\n"
			    "    - counterSet: gpu-%d-counter-set\n", g);
			emit_counters("      ", total, 0xff);
			emit_taint(n, g);
			/* Partitions, sorted by name as the driver does. */
			for (i = 0; i < NPROF; i++) {
				const struct profile *p = &profs[i];

				for (s = 0; s < NSLICE; s++) {
					if (!(p->starts & (1u << s)))
						continue;
					emit("  - name: gpu-%d-mig-%s-%d-%d\n",
					    g, p->dname, p->giid, s);
					emit_gpu_attrs(n, g, p, 0);
					emit_caps(p->ctr, 0, 0);
					emit("    consumesCounters:\n"
					    "    - counterSet: gpu-%d-counter-set\n",
					    g);
					emit_counters("      ", p->ctr,
					    ((1u << p->size) - 1) << s);
					emit_taint(n, g);
				}
			}
		}
		break;
	}
	if (n->nnic > 0) {
		snprintf(name, sizeof(name), "%s-nic-0", n->name);
		slice_begin(n, name, NIC_DRIVER, n->name, 1);
		emit("  devices:\n");
		for (i = 0; i < n->nnic; i++) {
			char bus[16], root[16];

			if (n->nicroot[i] >= 0)
				pci(n->nicroot[i], bus, sizeof(bus), root,
				    sizeof(root));
			else
				snprintf(root, sizeof(root), "pci0000:c0");
			snprintf(bus, sizeof(bus), "0000:%02x:00.0",
			    n->nicroot[i] >= 0 ? pcibus[n->nicroot[i]] + 1 :
			    0xc1 + i);
			emit("  - name: nic-%d\n    attributes:\n"
			    "      linkSpeedGbps: {int: %d}\n"
			    "      model: {string: ConnectX-7}\n"
			    "      resource.kubernetes.io/pciBusID: {string: \"%s\"}\n"
			    "      resource.kubernetes.io/pcieRoot: {string: %s}\n",
			    i, i == 0 ? 400 : 200, bus, root);
			if (n->nicshared) {
				/* Shared NICs: bandwidth is consumable. */
				emit("    allowMultipleAllocations: true\n"
				    "    capacity:\n      bandwidth:\n"
				    "        value: %dG\n        requestPolicy:\n"
				    "          default: 100G\n"
				    "          validRange:\n"
				    "            min: 50G\n            step: 50G\n",
				    i == 0 ? 400 : 200);
			}
		}
	}
}

/* ------------------------------------------------------------ claims -- */

static const char *const mig_prof_pick[] = {
	"1g.10gb", "1g.10gb", "1g.10gb", "1g.20gb", "2g.20gb", "2g.20gb",
	"3g.40gb", "3g.40gb", "4g.40gb", "7g.80gb", "1g.10gb+me"
};
#define NMIGPICK	((int)(sizeof(mig_prof_pick) / sizeof(mig_prof_pick[0])))

/* A class for a request, preferring the kinds the cluster has. */
static int
pick_class(void)
{
	int	i, k;

	for (i = 0; i < 4; i++) {
		k = classes[rnd(nclasses)];
		if (k == K_NIC && !any_nic && i < 3)
			continue;
		if (k == K_MIG && !any_mig && i < 3)
			continue;
		return k;
	}
	return k;
}

/*
 * More of the CEL that admins write: string functions, regular
 * expressions, lists, bind, quantity and semver methods, arithmetic,
 * optionals.  Per class kind: MIG, NIC, full GPU, any GPU device.
 */
static const char *const zoo_mig[] = {
	"device.attributes['gpu.nvidia.com'].profile.matches('^[1-3]g[.]')",
	"device.attributes['gpu.nvidia.com'].profile in ['1g.10gb', '2g.20gb']",
	"device.attributes['gpu.nvidia.com'].profile.startsWith('1g') && "
	    "!device.attributes['gpu.nvidia.com'].profile.endsWith('+me')",
	"device.capacity['gpu.nvidia.com'].memory.isGreaterThan(quantity('30Gi'))",
	"device.capacity['gpu.nvidia.com'].multiprocessors.asInteger() >= 60",
	"cel.bind(m, device.capacity['gpu.nvidia.com'].memory, "
	    "m.compareTo(quantity('10Gi')) > 0 && m.compareTo(quantity('45Gi')) < 0)",
	"size(device.attributes['gpu.nvidia.com'].profile) > 7",
	"device.capacity['gpu.nvidia.com'].ofaEngines.isGreaterThan(quantity('0'))",
	"device.capacity['gpu.nvidia.com'].memory.add(quantity('1Gi'))"
	    ".isGreaterThan(quantity('20Gi'))",
};
static const char *const zoo_nic[] = {
	"device.attributes['nic.example.com'].linkSpeedGbps * 2 >= 800",
	"device.allowMultipleAllocations == true",
	"device.attributes['nic.example.com'].model.contains('ConnectX')",
	"device.capacity['nic.example.com'].?bandwidth.orValue(quantity('0'))"
	    ".compareTo(quantity('300G')) >= 0",
	"'nic.example.com' in device.attributes && "
	    "device.attributes['resource.kubernetes.io'].pcieRoot != 'pci0000:c0'",
};
static const char *const zoo_gpu[] = {
	"device.attributes['gpu.nvidia.com'].productName.contains('H100')",
	"device.attributes['gpu.nvidia.com'].uuid.startsWith('GPU-')",
	"device.attributes['gpu.nvidia.com'].index % 2 == 0",
	"device.attributes['gpu.nvidia.com'].cudaComputeCapability.major() >= 9",
	"device.attributes['resource.kubernetes.io'].pciBusID.endsWith(':00.0') && "
	    "device.attributes['resource.kubernetes.io'].pciBusID < '0000:40:00.0'",
	"device.attributes['gpu.nvidia.com'].?uuid.hasValue()",
	"device.capacity['gpu.nvidia.com'].memory.asApproximateFloat() > 5e10",
	"device.attributes['gpu.nvidia.com'].driverVersion.isLessThan(semver('575.0.0'))",
	"[0, 1].exists(i, device.attributes['gpu.nvidia.com'].index == i)",
	"device.attributes['gpu.nvidia.com'].architecture.lowerAscii() == 'hopper'",
};
static const char *const zoo_any[] = {
	"device.attributes['gpu.nvidia.com'].type in ['gpu', 'mig'] && "
	    "device.attributes['gpu.nvidia.com'].?profile.orValue('7g.80gb')"
	    ".startsWith('7g')",
	"device.attributes['gpu.nvidia.com'].?parentUUID.orValue("
	    "device.attributes['gpu.nvidia.com'].?uuid.orValue('')) != ''",
	"has(device.attributes['gpu.nvidia.com'].profile) ? "
	    "device.attributes['gpu.nvidia.com'].profile == '3g.40gb' : "
	    "device.attributes['gpu.nvidia.com'].productName.contains('A100')",
	"device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) <= 0",
};
#define NZOO(a)	((int)(sizeof(a) / sizeof(a[0])))

/* One CEL request selector for class k; NULL for none. */
static const char *
pick_selector(int k, char *buf, size_t bs)
{
	if (chance(35)) {
		switch (k) {
		case K_MIG:
			return zoo_mig[rnd(NZOO(zoo_mig))];
		case K_NIC:
			return zoo_nic[rnd(NZOO(zoo_nic))];
		case K_ANY:
			return zoo_any[rnd(NZOO(zoo_any))];
		default:
			return zoo_gpu[rnd(NZOO(zoo_gpu))];
		}
	}
	switch (k) {
	case K_MIG:
		switch (rnd(4)) {
		case 0:
		case 1:
			snprintf(buf, bs,
			    "device.attributes['gpu.nvidia.com'].profile == '%s'",
			    mig_prof_pick[rnd(NMIGPICK)]);
			return buf;
		case 2:
			snprintf(buf, bs, "device.capacity['gpu.nvidia.com']"
			    ".memory.compareTo(quantity('%s')) >= 0",
			    chance(50) ? "20Gi" : "10Gi");
			return buf;
		default:
			snprintf(buf, bs, "device.capacity['gpu.nvidia.com']"
			    ".multiprocessors.compareTo(quantity('%d')) >= 0",
			    chance(50) ? 32 : 60);
			return buf;
		}
	case K_NIC:
		snprintf(buf, bs,
		    "device.attributes['nic.example.com'].linkSpeedGbps >= %d",
		    chance(50) ? 400 : 200);
		return buf;
	case K_ANY:
		switch (rnd(4)) {
		case 0:
			return "device.attributes['gpu.nvidia.com'].?profile"
			    ".orValue('') == ''";
		case 1:
			snprintf(buf, bs, "device.attributes['gpu.nvidia.com']"
			    ".?profile.orValue('%s') == '%s'",
			    "none", mig_prof_pick[rnd(NMIGPICK)]);
			return buf;
		case 2:
			return "has(device.attributes['gpu.nvidia.com'].uuid)";
		default:
			/* Rare: a runtime error on full GPUs. */
			if (chance(40))
				return "device.attributes['gpu.nvidia.com']"
				    ".profile == '1g.10gb'";
			return "device.capacity['gpu.nvidia.com'].memory"
			    ".compareTo(quantity('20Gi')) < 0";
		}
	default:	/* full-GPU classes */
		switch (rnd(6)) {
		case 0:
			/* Mostly a model the cluster has. */
			snprintf(buf, bs, "device.attributes['gpu.nvidia.com']"
			    ".productName == '%s'", product[chance(85) ?
			    nodes[rnd(nnodes)].model : rnd(2)]);
			return buf;
		case 1:
			snprintf(buf, bs, "device.capacity['gpu.nvidia.com']"
			    ".memory.compareTo(quantity('%s')) > 0",
			    chance(50) ? "40Gi" : "80Gi");
			return buf;
		case 2:
			snprintf(buf, bs, "device.attributes['gpu.nvidia.com']"
			    ".index >= %d", rnd(3));
			return buf;
		case 3:
			snprintf(buf, bs, "device.attributes['gpu.nvidia.com']"
			    ".?index.orValue(0) < %d", 2 + rnd(3));
			return buf;
		case 4:
			if (chance(50))
				return "has(device.attributes['gpu.nvidia.com'].uuid)";
			/* semver: Hopper (9.0) or a driver >= 575 */
			if (chance(50))
				return "device.attributes['gpu.nvidia.com']"
				    ".cudaComputeCapability.isGreaterThan("
				    "semver('8.5.0'))";
			return "device.attributes['gpu.nvidia.com']"
			    ".driverVersion.compareTo(semver('575.0.0')) >= 0";
		default:
			snprintf(buf, bs, "device.attributes['resource."
			    "kubernetes.io'].pcieRoot == 'pci0000:%02x'",
			    pcibus[2 * rnd(2)] - 1);
			return buf;
		}
	}
}

/* The body of an exact request (or a subrequest) at indent ind. */
static void
emit_exact(const char *ind, int k, int allow_all, int admin, int *tolerate)
{
	char	sel[256];
	int	nsel, i;

	emit("%sdeviceClassName: %s\n", ind, class_name[k]);
	/* allow_all is 0 for existing allocations: keep them simple. */
	nsel = chance(allow_all ? 45 : 25) ? 1 + chance(allow_all ? 20 : 0) : 0;
	if (nsel > 0) {
		emit("%sselectors:\n", ind);
		for (i = 0; i < nsel; i++)
			emit("%s- cel:\n%s    expression: \"%s\"\n", ind, ind,
			    pick_selector(k, sel, sizeof(sel)));
	}
	if (allow_all && chance(10)) {
		emit("%sallocationMode: All\n", ind);
	} else {
		int r = rnd(10);

		if (!allow_all)
			r = r < 8 ? 0 : 6;
		emit("%sallocationMode: ExactCount\n%scount: %d\n", ind, ind,
		    r < 6 ? 1 : r < 9 || chance(50) ? 2 : 3);
	}
	if (admin)
		emit("%sadminAccess: true\n", ind);
	if (k == K_NIC && any_shared && chance(50)) {
		static const char *const bw[] = { "100G", "150G", "200G",
		    "75G", "400G" };

		emit("%scapacity:\n%s  requests:\n%s    bandwidth: %s\n", ind,
		    ind, ind, bw[rnd(5)]);
	}
	if (any_taint && chance(35)) {
		*tolerate = 1;
		emit("%stolerations:\n", ind);
		switch (rnd(3)) {
		case 0:
			emit("%s- key: %s\n%s  operator: Exists\n", ind,
			    TAINT_KEY, ind);
			break;
		case 1:
			emit("%s- key: %s\n%s  operator: Equal\n%s  value: "
			    "xid-79\n%s  effect: NoSchedule\n", ind, TAINT_KEY,
			    ind, ind, ind);
			break;
		default:
			emit("%s- operator: Exists\n", ind);
			break;
		}
	}
}

static void
emit_claim(const char *name, const char *ns, const char *role, int nreq,
    int allow_fancy, int admin)
{
	char	labels[128], rname[3][16];
	int	kind[3], r, tol = 0, s, nsub;

	snprintf(labels, sizeof(labels),
	    "    agree.kubectl-dra/role: %s\n", role);
	doc("resource.k8s.io/v1", "ResourceClaim");
	meta(name, ns, labels);
	emit("spec:\n  devices:\n    requests:\n");
	for (r = 0; r < nreq; r++) {
		kind[r] = pick_class();
		snprintf(rname[r], sizeof(rname[r]), "%s-%d",
		    kind[r] == K_NIC ? "nic" : kind[r] == K_MIG ? "mig" : "gpu",
		    r);
		emit("    - name: %s\n", rname[r]);
		if (allow_fancy && !admin && chance(20)) {
			nsub = 2 + chance(30);
			emit("      firstAvailable:\n");
			for (s = 0; s < nsub; s++) {
				int ks = s == 0 ? kind[r] : pick_class();

				emit("      - name: sub-%d\n", s);
				emit_exact("        ", ks, 1, 0, &tol);
			}
		} else {
			emit("      exactly:\n");
			emit_exact("        ", kind[r], allow_fancy,
			    admin && r == 0, &tol);
		}
	}
	if (!allow_fancy || !chance(nreq > 1 ? 55 : 20))
		return;
	emit("    constraints:\n");
	switch (rnd(4)) {
	case 0:
		emit("    - matchAttribute: resource.kubernetes.io/pcieRoot\n");
		break;
	case 1:
		emit("    - matchAttribute: gpu.nvidia.com/productName\n");
		break;
	case 2:
		emit("    - distinctAttribute: resource.kubernetes.io/pciBusID\n");
		break;
	default:
		emit("    - matchAttribute: gpu.nvidia.com/parentUUID\n");
		break;
	}
	if (nreq > 1 && chance(50)) {
		emit("      requests:\n");
		for (r = 0; r < 2; r++)
			emit("      - %s\n", rname[r]);
	}
}

static void
emit_pod(const char *claim, const char *ns, const char *node)
{
	char	name[320];

	snprintf(name, sizeof(name), "%s-pod", claim);
	doc("v1", "Pod");
	meta(name, ns, "    agree.kubectl-dra/role: existing\n");
	emit("spec:\n");
	if (node != NULL)
		emit("  nodeSelector:\n    kubernetes.io/hostname: %s\n", node);
	emit("  automountServiceAccountToken: false\n"
	    "  terminationGracePeriodSeconds: 0\n"
	    "  containers:\n  - name: pause\n"
	    "    image: registry.k8s.io/pause:3.10\n"
	    "    resources:\n      claims:\n      - name: dra\n"
	    "  resourceClaims:\n  - name: dra\n    resourceClaimName: %s\n",
	    claim);
}

/* -------------------------------------------------------------- main -- */

static void
build(void)
{
	int	i, g, k, shuffled[NCLASS];

	nnodes = 1 + rnd(MAXNODES);
	for (i = 0; i < nnodes; i++) {
		struct node *n = &nodes[i];

		snprintf(n->name, sizeof(n->name), "node-%c", 'a' + i);
		n->model = chance(25) ? M_A100 : M_H100;
		n->layout = n->model == M_A100 ? L_FULL : rnd(3);
		g = rnd(20);
		n->ngpu = g < 3 ? 1 : g < 8 ? 2 : g < 13 ? 3 : 4;
		n->split = n->layout == L_FULL && n->ngpu > 1 ? rnd(3) : S_ONE;
		n->mix0 = rnd(NMIX);
		n->rack = i / 2;
		for (g = 0; g < n->ngpu; g++) {
			n->taint[g] = T_NONE;
			if (chance(12)) {
				int t = rnd(10);

				n->taint[g] = t < 7 ? T_NOSCHED : t < 8 ?
				    T_NOEXEC : T_EFFNONE;
				any_taint = 1;
			}
		}
		if (chance(40)) {
			n->nnic = 1 + rnd(2);
			n->nicroot[0] = chance(80) ? 0 : -1;
			n->nicroot[1] = n->ngpu > 2 && chance(70) ? 2 : -1;
			n->nicshared = chance(40);
			any_nic = 1;
			any_shared |= n->nicshared;
		}
		n->driver = chance(25);
		n->incomplete = n->layout == L_DYN && chance(8);
		n->stale = n->layout == L_FULL && chance(10);
		if (n->layout != L_FULL)
			any_mig = 1;
		if (n->model == M_A100)
			any_a100 = 1;
	}
	/* 1-3 classes; the first is one of NVIDIA's own. */
	for (i = 0; i < NCLASS; i++)
		shuffled[i] = i;
	for (i = NCLASS - 1; i > 0; i--) {
		int j = rnd(i + 1), t = shuffled[i];

		shuffled[i] = shuffled[j];
		shuffled[j] = t;
	}
	k = any_mig && chance(50) ? K_MIG : K_GPU;
	classes[nclasses++] = k;
	have_class[k] = 1;
	for (i = 0, g = rnd(3); i < NCLASS && g > 0; i++) {
		k = shuffled[i];
		if (have_class[k])
			continue;
		if (k == K_NIC && !any_nic)
			continue;
		classes[nclasses++] = k;
		have_class[k] = 1;
		g--;
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: dra-gen-scenario --seed N [--index I] "
	    "[-o FILE]\n");
	exit(2);
}

static unsigned long long
number(const char *s)
{
	char			*end;
	unsigned long long	 v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || *s == '-')
		usage();
	return v;
}

int
main(int argc, char **argv)
{
	unsigned long long	 seed = 0, index = 0;
	const char		*file = NULL;
	char			 name[32];
	int			 i, have_seed = 0, nexist, nnew, nreq;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = number(argv[++i]);
			have_seed = 1;
		} else if (strcmp(argv[i], "--index") == 0 && i + 1 < argc) {
			index = number(argv[++i]);
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			file = argv[++i];
		} else {
			usage();
		}
	}
	if (!have_seed)
		usage();
	snprintf(scen, sizeof(scen), "%llu-%llu", seed, index);
	rng_state = seed * 0x100000001b3ULL ^ (index + 1) * 0x9e3779b97f4a7c15ULL;
	(void)rng_next();

	out = stdout;
	if (file != NULL && (out = fopen(file, "w")) == NULL) {
		fprintf(stderr, "dra-gen-scenario: %s: %s\n", file,
		    strerror(errno));
		return 1;
	}
	build();
	emit("# dra-gen-scenario --seed %llu --index %llu\n", seed, index);
	emit_namespaces();
	emit_nodes();
	emit_classes();
	for (i = 0; i < nnodes; i++)
		emit_node_slices(&nodes[i]);

	/* Existing allocations: simple claims, created before the new ones. */
	nexist = rnd(4);
	for (i = 0; i < nexist; i++) {
		snprintf(name, sizeof(name), "existing-%d", i);
		emit_claim(name, "agree", "existing", 1 + chance(10), 0, 0);
		emit_pod(name, "agree",
		    chance(50) ? nodes[rnd(nnodes)].name : NULL);
	}
	nnew = 1 + rnd(5);
	for (i = 0; i < nnew; i++) {
		int admin = chance(6);

		snprintf(name, sizeof(name), "claim-%d", i);
		nreq = rnd(100) < 65 ? 1 : rnd(4) < 3 ? 2 : 3;
		emit_claim(name, admin ? "agree-admin" : "agree", "new", nreq,
		    1, admin);
	}
	if (fflush(out) != 0 || ferror(out) ||
	    (out != stdout && fclose(out) != 0)) {
		fprintf(stderr, "dra-gen-scenario: write error: %s\n",
		    strerror(errno));
		return 1;
	}
	return 0;
}

"""The SM90 kernel configurations the compiler accepts, and the sets of them
that the benchmark suite compiles (the fit's candidates are gemm_bench.fit's).

    python -m gemm_bench.configs --out FILE.mlir [--set best|space]
        [--model bench/tuning/sm90-h200-model.json] [--groups G,...] [--shapes-dir DIR]

A configuration is one `#gemm.config` of an sm_90a `gemm.matmul` with A row,
B col and C row in the same 16-bit type (bf16 or f16) and f32 accumulation.
Its name says everything, e.g. `sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0`:
tile BMxBNxBK, schedule (coop = cooperative, pingpong), cluster (CTAs along
M x along N), raster (rm = along_m, rn = along_n), swizzle (tiles per panel),
stages (st0 = derived from the shared-memory budget), and with split-K a
suffix _k<S> (S k-ranges per tile, `scheduler = split_k, splits = S`) or
with stream-K the suffix _sk (`scheduler = stream_k`).

What the compiler accepts is `gemm._core.KernelConfig.buildable` (the
dispatcher's KernelConfig::buildable, lib/Dispatch/KernelConfig.cpp, which
test/Python/configs.test holds to the compiler's verdicts around the
space's edges); `Config.problems()` asks it. The space below is the 16-bit
tiles, clusters, orders and depths it accepts.
"""
import argparse
import dataclasses
import re
import sys

ELEMENT_BYTES = {"bf16": 2, "f16": 2}

SCHEDULES = {"cooperative": "coop", "pingpong": "pingpong", "direct": "direct"}
RASTERS = {"along_m": "rm", "along_n": "rn"}

# Every (BM, BN, schedule) that KernelConfig::buildable allows for 16-bit types; each
# is compiled (and assembled by ptxas without spills) by test/Python.
TILES = (
    (128, 256, "cooperative"), (256, 128, "cooperative"),
    (128, 192, "cooperative"), (128, 128, "cooperative"),
    (128, 64, "cooperative"), (256, 64, "cooperative"),
    (128, 128, "pingpong"), (128, 64, "pingpong"),
    (64, 256, "pingpong"), (64, 192, "pingpong"),
    (64, 128, "pingpong"), (64, 64, "pingpong"),
)
# The direct kernel's tiles (BM, BN) in the space; each compiles without
# spills (test/PTX/sm90-direct.mlir).
DIRECT_TILES = ((64, 32), (64, 64), (128, 32), (128, 64), (128, 128))
# Cluster shapes run on the H200 so far (bench/results); larger ones compile
# but have not been checked on a GPU.
CLUSTERS = ((1, 1), (2, 1), (1, 2))
SWIZZLES = (1, 4, 8, 16)
DEFAULT_RASTER, DEFAULT_SWIZZLE = "along_m", 8
DEFAULT_LAYOUTS = "akbkcr"


@dataclasses.dataclass(frozen=True)
class Config:
    tile_m: int
    tile_n: int
    schedule: str = "cooperative"
    cluster_m: int = 1
    cluster_n: int = 1
    raster: str = DEFAULT_RASTER
    swizzle: int = DEFAULT_SWIZZLE
    stages: int = 0
    tile_k: int = 64
    dtype: str = "bf16"
    splits: int = 1
    stream_k: bool = False
    layouts: str = DEFAULT_LAYOUTS

    @property
    def c_columns(self):
        return self.layouts.endswith("cc")

    @property
    def key(self):
        """The name without arch and type: one key for a bf16 and an f16 twin
        (with the layout token when not the default)."""
        return ((f"{self.layouts}_" if self.layouts != DEFAULT_LAYOUTS else "") +
                f"{self.tile_m}x{self.tile_n}x{self.tile_k}_{SCHEDULES[self.schedule]}"
                f"_c{self.cluster_m}x{self.cluster_n}_{RASTERS[self.raster]}"
                f"_s{self.swizzle}_st{self.stages}"
                + (f"_k{self.splits}" if self.splits > 1 else "")
                + ("_sk" if self.stream_k else ""))

    @property
    def name(self):
        return f"sm90_{self.dtype}_{self.key}"

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    def kernel_config(self):
        """The dispatcher's KernelConfig of this configuration."""
        import gemm
        a, b, c = self.layouts[1], self.layouts[3], self.layouts[5]
        layouts = ",".join(["row" if a == "k" else "col", "col" if b == "k" else "row",
                            "row" if c == "r" else "col"])
        try:
            return gemm._core.KernelConfig.make(
                self.dtype, None, (self.tile_m, self.tile_n, self.tile_k),
                (self.cluster_m, self.cluster_n), self.schedule, self.raster, self.swizzle,
                self.stages, self.splits, self.stream_k, layouts)
        except (gemm.UsageError, TypeError) as error:
            raise ValueError(f"{self.name}: {error}") from None

    def derived_stages(self):
        """Ring depth the compiler derives for stages = 0 (the direct
        kernel: 2)."""
        return self.kernel_config().derived_stages()

    def problems(self):
        """Why the compiler would reject this configuration ([] = accepted),
        each reason led by the name."""
        try:
            ok, why = self.kernel_config().buildable()
        except ValueError as error:
            return [str(error)]
        return [] if ok else [why]

    def mlir(self):
        return self.kernel_config().mlir

    def as_dict(self):
        return dataclasses.asdict(self)


_NAME = re.compile(r"^(?:sm90_(?P<dtype>[a-z0-9]+)_)?(?:(?P<layouts>a[km]b[kn]c[rc])_)?"
                   r"(?P<bm>\d+)x(?P<bn>\d+)x(?P<bk>\d+)"
                   r"_(?P<sched>coop|pingpong|direct)_c(?P<cm>\d+)x(?P<cn>\d+)_(?P<raster>rm|rn)"
                   r"_s(?P<swizzle>\d+)_st(?P<stages>\d+)(?:_k(?P<splits>\d+)|(?P<sk>_sk))?$")


def parse_name(name, dtype="bf16"):
    """The Config of a bundle name or key (inverse of Config.name/.key).
    Without the gemm package: `suite run` and `fit measure` parse names on
    the GPU machine, which has none."""
    match = _NAME.match(name)
    if not match:
        raise ValueError(f"not a configuration name: {name}")
    g = match.groupdict()
    schedule = {v: k for k, v in SCHEDULES.items()}[g["sched"]]
    raster = {v: k for k, v in RASTERS.items()}[g["raster"]]
    return Config(int(g["bm"]), int(g["bn"]), schedule, int(g["cm"]), int(g["cn"]),
                  raster, int(g["swizzle"]), int(g["stages"]), int(g["bk"]),
                  g["dtype"] or dtype, int(g["splits"] or 1), bool(g["sk"]),
                  g["layouts"] or DEFAULT_LAYOUTS)


def from_dict(d):
    return Config(**d)


def space(dtypes=("bf16",)):
    """The whole space: TILES x CLUSTERS x raster x swizzle, derived depth,
    and the direct tiles in each order."""
    return ([Config(bm, bn, schedule, cm, cn, raster, swizzle, dtype=dtype)
             for dtype in dtypes for bm, bn, schedule in TILES for cm, cn in CLUSTERS
             for raster in RASTERS for swizzle in SWIZZLES] +
            [Config(bm, bn, "direct", raster=raster, swizzle=swizzle, dtype=dtype)
             for dtype in dtypes for bm, bn in DIRECT_TILES for raster in RASTERS
             for swizzle in SWIZZLES])


def write_mlir(configs, path, header=""):
    """Writes one gemm.matmul per configuration; refuses illegal ones."""
    bad = [problem for c in configs for problem in c.problems()]
    if bad:
        raise ValueError("; ".join(bad))
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise ValueError("duplicate configuration names")
    with open(path, "w") as f:
        f.write("// Generated by python -m gemm_bench.configs" + (f" ({header})" if header else "")
                + f"; {len(configs)} kernels.\n")
        f.write('// Compile: python -m gemm_bench.compile THIS_FILE --out DIR\n\n')
        for config in configs:
            f.write(config.mlir())


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write gemm.matmul variants of the "
                                     "SM90 configuration space to a .mlir file.")
    parser.add_argument("--out", required=True, help="the .mlir file to write")
    parser.add_argument("--set", default="best", choices=("best", "space"),
                        help="best: what the suite runs, the dispatcher's choice for every "
                        "shape of the groups (default); space: every tile x cluster x order")
    parser.add_argument("--model", help="the dispatcher's model for --set best "
                        "(default bench/tuning/sm90-h200-model.json)")
    parser.add_argument("--shapes-dir", help="default: bench/shapes")
    parser.add_argument("--groups", help="comma-separated shape groups for --set best "
                        "(default: the sweep; see gemm_bench.suite)")
    args = parser.parse_args(argv)

    if args.set == "space":
        configs = space(("bf16", "f16"))
    else:
        from gemm_bench import suite
        from gemm_bench.shapes import SHAPE_GROUPS
        groups = suite.parse_groups(args.groups) if args.groups else SHAPE_GROUPS
        configs = []
        for selection in suite.select_all(suite.load_model(args.model), args.shapes_dir,
                                          groups=groups):
            if selection["config"] not in configs:
                configs.append(selection["config"])
    write_mlir(configs, args.out, header=f"--set {args.set}")
    print(f"{args.out}: {len(configs)} kernels (--set {args.set})")


if __name__ == "__main__":
    # Run the imported module's main, so that Config is one class for this
    # module and for the modules it imports (suite).
    from gemm_bench.configs import main as package_main
    sys.exit(package_main())

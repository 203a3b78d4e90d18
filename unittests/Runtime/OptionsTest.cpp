//===- OptionsTest.cpp - gemm-runner's command line -----------------------===//

#include "Options.h"

#include "gemm/Runtime/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace gemm::runner;
using gemm::runtime::Error;
using gemm::runtime::ErrorKind;
using gemm::runtime::ReferenceMode;
using gemm::runtime::UnalignedPolicy;

namespace {

std::string usageError(std::vector<std::string> args) {
  try {
    parseCommandLine(args);
  } catch (const Error &error) {
    EXPECT_EQ(error.kind(), ErrorKind::Usage);
    return error.what();
  }
  ADD_FAILURE() << "accepted";
  return {};
}

TEST(Options, Defaults) {
  Options o = parseCommandLine({"b.json", "--m", "1", "--n=2", "--k", "3"});
  EXPECT_EQ(o.bundlePath, "b.json");
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_EQ(o.problems[0].n, 2u);
  EXPECT_EQ(o.problems[0].batch, 1u);
  EXPECT_TRUE(o.check);
  EXPECT_FALSE(o.bench);
  EXPECT_EQ(o.reference, ReferenceMode::Auto);
  EXPECT_EQ(o.timeout.count(), 10000);
  EXPECT_EQ(o.warmup, 10);
  EXPECT_EQ(o.iterations, 50);
  EXPECT_EQ(o.unaligned, UnalignedPolicy::Stage);
}

TEST(Options, Unaligned) {
  auto parse = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"b.json", "--m", "1", "--n",
                                     "2",      "--k", "3"};
    args.insert(args.end(), extra.begin(), extra.end());
    return parseCommandLine(args).unaligned;
  };
  EXPECT_EQ(parse({"--unaligned", "stage"}), UnalignedPolicy::Stage);
  EXPECT_EQ(parse({"--unaligned=pad"}), UnalignedPolicy::Pad);
  EXPECT_EQ(parse({"--unaligned", "reject"}), UnalignedPolicy::Reject);
  // The old flag keeps working: it is --unaligned pad.
  EXPECT_EQ(parse({"--pad-leading-dims"}), UnalignedPolicy::Pad);
  EXPECT_EQ(parse({"--pad-leading-dims", "--unaligned", "pad"}),
            UnalignedPolicy::Pad);
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--unaligned", "copy"}),
            "--unaligned: expected stage, pad or reject, got 'copy'");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--pad-leading-dims", "--unaligned", "stage"}),
            "--pad-leading-dims means --unaligned pad, which contradicts "
            "--unaligned stage");
}

TEST(Options, BenchImplications) {
  Options o = parseCommandLine({"b.json", "--m", "1", "--n", "2", "--k", "3",
                                "--vs", "cublas", "--cold-l2", "--iters", "7",
                                "--reference", "both", "--json", "o.json"});
  EXPECT_TRUE(o.bench);
  EXPECT_FALSE(o.check);
  EXPECT_TRUE(o.vsCublas);
  EXPECT_TRUE(o.coldL2);
  EXPECT_EQ(o.iterations, 7);
  EXPECT_EQ(o.reference, ReferenceMode::Both);
  EXPECT_EQ(o.jsonPath, "o.json");
}

TEST(Options, Errors) {
  EXPECT_THAT(usageError({"--m", "1"}), ::testing::HasSubstr("no bundle"));
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2"}),
            "missing --k (give --m M --n N --k K, or --shapes FILE)");
  EXPECT_EQ(usageError({"b.json", "--m", "-5", "--n", "2", "--k", "3"}),
            "--m: expected an integer >= 1, got '-5'");
  EXPECT_EQ(usageError({"b.json", "--m", "0", "--n", "2", "--k", "3"}),
            "--m: expected an integer >= 1, got '0'");
  EXPECT_EQ(usageError({"b.json", "--m", "12x", "--n", "2", "--k", "3"}),
            "--m: expected an integer >= 1, got '12x'");
  EXPECT_EQ(usageError({"b.json", "--frobnicate"}),
            "unknown option '--frobnicate' (see --help)");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3", "--vs",
                        "rocblas"}),
            "--vs: expected 'cublas', got 'rocblas'");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--shapes", "s.txt"}),
            "give the problem either with --m/--n/--k or with --shapes, not "
            "both");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--m", "2"}), "--m given twice");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--sm-count", "4"}),
            "--sm-count applies to --dry-run only (on a GPU the runner reads "
            "the SM count and occupancy)");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--tolerance", "0"}),
            "--tolerance: expected a positive number, got '0'");
  EXPECT_EQ(usageError({"b.json", "--check=yes"}), "--check takes no value");
  EXPECT_EQ(usageError({"b.json", "--timeout-ms"}),
            "--timeout-ms needs a value");
}

TEST(Options, SimulatorComparison) {
  Options o = parseCommandLine({"b.json", "--m", "1", "--n", "2", "--k", "3",
                                "--inputs", "small-int", "--dump-c", "c.bin",
                                "--expect-c", "sim.bin"});
  EXPECT_EQ(o.inputs, gemm::runtime::InputValues::SmallIntegers);
  EXPECT_EQ(o.dumpC, "c.bin");
  EXPECT_EQ(o.expectC, "sim.bin");
  EXPECT_TRUE(o.check);
  EXPECT_EQ(
      parseCommandLine({"b.json", "--m", "1", "--n", "2", "--k", "3"}).inputs,
      gemm::runtime::InputValues::Normal);
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                        "--inputs", "ones"}),
            "--inputs: expected normal or small-int, got 'ones'");
  EXPECT_EQ(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3", "--bench",
                        "--expect-c", "sim.bin"}),
            "--expect-c needs --check (C of the check run)");
}

TEST(Options, Shapes) {
  auto shapes =
      parseShapes("# sweep\n4096 4096 4096\n\n 1 2 3 4 # batched\n", "s.txt");
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].k, 4096u);
  EXPECT_EQ(shapes[1].batch, 4u);
  try {
    parseShapes("1 2\n", "s.txt");
    ADD_FAILURE();
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(),
                 "s.txt:1: expected 'M N K' or 'M N K BATCH', got '1 2'");
  }
  try {
    parseShapes("# nothing\n", "s.txt");
    ADD_FAILURE();
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(),
                 "s.txt: no shapes (expected lines 'M N K [BATCH]')");
  }
}

} // namespace

namespace {

TEST(Options, BatchStrides) {
  Options o = parseCommandLine({"b.json", "--m", "1", "--n", "2", "--k", "3",
                                "--batch", "4", "--batch-strides", "0,p,96"});
  EXPECT_EQ(o.batchStrides[0], 0u);
  EXPECT_FALSE(o.batchStrides[1]);
  EXPECT_EQ(o.batchStrides[2], 96u);
  EXPECT_THAT(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                          "--batch", "4", "--batch-strides", "0,p"}),
              ::testing::HasSubstr("--batch-strides: expected three strides"));
  EXPECT_THAT(usageError({"b.json", "--m", "1", "--n", "2", "--k", "3",
                          "--batch-strides", "0,p,p"}),
              ::testing::HasSubstr("applies to batched problems"));
}

TEST(Options, LibraryLayout) {
  Options o = parseCommandLine({"--library", "lib", "--layout", "col,row,col",
                                "--m", "1", "--n", "2", "--k", "3"});
  EXPECT_EQ(o.layouts.a, gemm::bundle::Layout::Col);
  EXPECT_EQ(o.layouts.b, gemm::bundle::Layout::Row);
  EXPECT_EQ(o.layouts.c, gemm::bundle::Layout::Col);
  EXPECT_THAT(usageError({"b.json", "--layout", "row,col,row", "--m", "1",
                          "--n", "1", "--k", "1"}),
              ::testing::HasSubstr("--layout applies to --library"));
  EXPECT_THAT(usageError({"--library", "lib", "--layout", "row", "--m", "1",
                          "--n", "1", "--k", "1"}),
              ::testing::HasSubstr("--layout: 'row' is not three layouts"));
}

} // namespace

// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Plans one rank of a real model with the seed's names and no `unsafe`.
//!
//!   cargo run --example plan_rank -- [GROUPS.json] [TP] [RANK]
//!
//! GROUPS.json is an `eredu.groups.v1` description, e.g. the output of
//! `eredu describe examples/models/qwen3-1.7b`; by default the bundled
//! tests/vectors/inputs/models/qwen3-1.7b.groups.json. Prints every tensor
//! the rank materializes with its placement, local shape and bytes.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use eredu::{plan_rank, ModelDescription, ParallelTopology, ShardingPolicy, TensorPlacement};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../tests/vectors/inputs/models/qwen3-1.7b.groups.json")
    });
    let tp: u64 = args.next().map_or(Ok(2), |arg| arg.parse())?;
    let rank: u64 = args.next().map_or(Ok(0), |arg| arg.parse())?;

    let model = ModelDescription::from_json(std::fs::read(&path)?)?;
    let layout = plan_rank(
        &model,
        ParallelTopology::tensor_parallel(tp),
        rank,
        ShardingPolicy::Require,
    )?;

    println!(
        "{}: rank {rank} of TP {tp}, {} tensors",
        path.display(),
        layout.len()
    );
    for (target, tensor) in layout.tensors() {
        let placement = match tensor.placement() {
            TensorPlacement::Replicated => "replicated".to_owned(),
            TensorPlacement::Range { axis, start, end } => format!("axis {axis} [{start}, {end})"),
            TensorPlacement::Shard { axis, index, parts } => {
                format!("axis {axis} part {index}/{parts}")
            }
            TensorPlacement::Indices { axis, indices } => {
                format!(
                    "axis {axis} {} indices in {} runs",
                    indices.len(),
                    indices.runs().len()
                )
            }
            other => format!("{other:?}"),
        };
        let bytes = tensor
            .local_bytes()
            .map_or("?".to_owned(), |bytes| bytes.to_string());
        println!(
            "  {target:<60} {placement:<28} {:?} {bytes} B",
            tensor.local_shape()
        );
    }
    let totals = layout.totals();
    println!(
        "local {} of {} bytes; {} materialized, {} omitted",
        totals.local_bytes,
        totals.global_bytes,
        totals.materialized_tensors,
        totals.omitted_tensors
    );
    Ok(())
}

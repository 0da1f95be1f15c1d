// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! The Rust share of the bindings benchmark (README.md, "Bindings against
//! the command"; reported, never asserted):
//!
//!   cargo run --release --offline --example bench -- DESCRIPTION.json
//!
//! On the DeepSeek-V3-scale description (TP 8 x PP 2 x EP 8 = 128 ranks,
//! policy require) it prints, as `bench rust <figure> <value> <unit>`:
//! `load` (bytes already in memory -> model, median ms), `plan_one` (plan
//! rank 0 and get its eredu.layout.v1 text, median ms), `plan_all`
//! (eredu_plan_world_json on the hardware's threads, median ms), `accessor`
//! (ns per call of the layout's tensor count, averaged over 10^7 calls) and
//! `tensor` (ns to read every field of one tensor through its view, averaged
//! over 10^6 views cycling through rank 0's tensors).
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use eredu::{plan_world_json, ModelDescription, ParallelTopology, ShardingPolicy};

const RUNS: usize = 5;
const ACCESSOR_CALLS: u32 = 10_000_000;
const TENSOR_READS: u32 = 1_000_000;

fn median_ms<T>(mut run: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let value = black_box(run());
        times.push(start.elapsed());
        last = Some(value);
    }
    times.sort();
    (millis(times[RUNS / 2]), last.expect("RUNS > 0"))
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: bench DESCRIPTION.json (an eredu.groups.v1 file)")?;
    let bytes = std::fs::read(&path)?;
    let topology = ParallelTopology::new(8, 2, 8, 1);
    let policy = ShardingPolicy::Require;

    let (load, model) =
        median_ms(|| ModelDescription::from_json(&bytes).expect("the description loads"));
    let (plan_one, json) = median_ms(|| {
        model
            .plan_rank(topology, 0, policy)
            .and_then(|layout| layout.to_json())
            .expect("rank 0 plans")
    });
    let (plan_all, world) =
        median_ms(|| plan_world_json(&model, topology, policy).expect("every rank plans"));

    let layout = model.plan_rank(topology, 0, policy)?;
    let start = Instant::now();
    let mut sum = 0usize;
    for _ in 0..ACCESSOR_CALLS {
        sum = sum.wrapping_add(black_box(&layout).len());
    }
    let accessor = start.elapsed().as_secs_f64() * 1e9 / f64::from(ACCESSOR_CALLS);
    black_box(sum);

    // Every field of one tensor: the view and all its accessors.
    let count = layout.len();
    let start = Instant::now();
    for read in 0..TENSOR_READS {
        let tensor = layout
            .get(read as usize % count)
            .expect("an index below len");
        black_box((
            tensor.target(),
            tensor.logical_name(),
            tensor.role(),
            tensor.dtype(),
            tensor.global_shape(),
            tensor.local_shape(),
            tensor.placement(),
            tensor.logical_units(),
            tensor.logical_range(),
            tensor.fell_back_to_replication(),
            tensor.local_bytes(),
        ));
    }
    let tensor = start.elapsed().as_secs_f64() * 1e9 / f64::from(TENSOR_READS);

    eprintln!(
        "{path}: {} bytes, {} tensors; rank 0 layout {} bytes of JSON, world {} bytes",
        bytes.len(),
        model.tensor_count(),
        json.len(),
        world.len()
    );
    println!("bench rust load {load:.1} ms");
    println!("bench rust plan_one {plan_one:.1} ms");
    println!("bench rust plan_all {plan_all:.1} ms");
    println!("bench rust accessor {accessor:.1} ns");
    println!("bench rust tensor {tensor:.1} ns");
    Ok(())
}

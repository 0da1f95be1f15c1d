// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

//! Plans one rank through the Rust binding, built against the installed
//! liberedu, and prints its eredu.layout.v1 text: plan DESCRIPTION.json TP RANK

use std::io::Write;

use eredu::{plan_rank, ModelDescription, ParallelTopology, ShardingPolicy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        return Err("usage: plan DESCRIPTION.json TP RANK".into());
    }
    let model = ModelDescription::from_json(&std::fs::read(&args[1])?)?;
    let topology = ParallelTopology::tensor_parallel(args[2].parse()?);
    let layout = plan_rank(&model, topology, args[3].parse()?, ShardingPolicy::Require)?;
    std::io::stdout().write_all(layout.to_json()?.as_bytes())?;
    Ok(())
}

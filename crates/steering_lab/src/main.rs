//! `steering-lab`: run a steering scenario through the real plugin, check
//! the chapter's numbers, or draw its figures.

mod cli_parsers;
mod scenario_args;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scenario_args::{ScenarioArgs, report_json, trajectory_csv};
use serde_json::json;
use steering_lab::bench::BENCH_HZ;
use steering_lab::{MAX_STEPS, Soak, all_checks, format_table};

#[derive(Parser)]
#[command(name = "steering-lab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one agent and one target through the real SteeringPlugins, and
    /// print what happened as JSON.
    Scenario(ScenarioArgs),
    /// Reproduce every number the chapter quotes, as a table; exits non-zero
    /// if any disagrees.
    Check,
    /// Time the Critters mix (or a flock) through the real plugin, and print
    /// one JSON line with `ns_per_agent_step`.
    Bench {
        /// How many agents.
        #[arg(long, default_value_t = 10_000)]
        agents: usize,
        /// How many fixed steps to time, after a warm-up.
        #[arg(long, default_value_t = 100)]
        steps: u64,
        /// Time a flock (the three rules over the neighbor grid) instead.
        #[arg(long, conflicts_with = "level")]
        flock: bool,
        /// Time a level instead: agents among obstacles and walls, kept in
        /// by containment, a quarter of them following paths, combined by
        /// priority (`steering_lab::bench::level_app`).
        #[arg(long, conflicts_with = "plain")]
        level: bool,
        /// How many obstacles the level has (at most 1,024).
        #[arg(long, default_value_t = 1_000, requires = "level")]
        obstacles: usize,
        /// Time the Critters mix flown, by flyers in 3D, instead
        /// (`steering_lab::bench::flyers_mix_app`); with `--flock`, a flock
        /// of flyers in 3D (`steering_lab::bench::flyer_flock_app`).
        #[arg(long, conflicts_with_all = ["level", "plain", "empty"])]
        flyers: bool,
        /// Time the plain-Rust loop of the same math instead of the plugin
        /// (one thread, no ECS): the floor for the ECS's overhead.
        #[arg(long)]
        plain: bool,
        /// Also report the plugin's time in each stage, in ns per agent-step.
        #[arg(long)]
        stages: bool,
        /// Time the Critters mix's app without the plugin (and so without
        /// agents): the baseline of the plugin's fixed cost.
        #[arg(long, conflicts_with_all = ["flock", "level", "plain", "stages"])]
        empty: bool,
        /// Threads in Bevy's compute pool (one a core if not given; 0 keeps
        /// Bevy's default pools, as a game has them).
        #[arg(long)]
        threads: Option<usize>,
        /// The seed of the placements and of every wander.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Run agents for a long while, replacing some every second, with
    /// flocking and trails on; print the grid's and the trails' memory and
    /// the count of non-finite values as JSON. Exits 1 if memory grows or
    /// any value is not finite.
    Soak {
        /// How many agents live at any time.
        #[arg(long, default_value_t = 1_000)]
        agents: usize,
        /// Simulated seconds.
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// The share of the agents replaced each simulated second.
        #[arg(long, default_value_t = 0.1)]
        churn: f64,
        /// Threads in Bevy's compute pool (all cores if not given).
        #[arg(long)]
        threads: Option<usize>,
        /// The seed of the placements, the churn and every wander.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Run crowd scenes (people 1 m across at 1.3 m/s, in metres) through
    /// the plugin's `AvoidAgents`, separation alone, or ORCA (`dodgy_2d`),
    /// and print one JSON line a run: who arrived (and when the last did),
    /// overlaps, time and path against the straight line, ms a step.
    Crowd {
        /// The scenes, by name, or `all`.
        #[arg(long, value_delimiter = ',', default_value = "all")]
        scene: Vec<String>,
        /// The methods: avoid, separation, orca, none (the plugin without
        /// avoiding: what avoiding adds to a step is the difference),
        /// navigate (avoid, each sent with the plugin's `Navigate` instead
        /// of the scene's routes).
        #[arg(long, value_delimiter = ',', default_value = "avoid,orca")]
        method: Vec<String>,
        /// Steps a second.
        #[arg(long, value_delimiter = ',', default_value = "60")]
        hz: Vec<f64>,
        /// Threads in Bevy's compute pool (one a core if not given).
        #[arg(long)]
        threads: Option<usize>,
        /// The seed of the random scenes, and of `--jitter`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Move everyone's start by up to this many metres along each
        /// axis, at random from `--seed` (at most 0.1): run a few seeds to
        /// see how much of a result is the scene and how much its exact
        /// starting places. 0, the scene as written, by default.
        #[arg(long, default_value_t = 0.0)]
        jitter: f32,
        /// Also write every position after every step into this CSV file
        /// (`scene,method,hz,step,agent,x,y`), for plotting.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Run each scene at most this many simulated seconds (to time
        /// steps of a big crowd without waiting for everyone to arrive).
        #[arg(long)]
        seconds: Option<f32>,
    },
    /// The most of a crowd scene's people who could arrive within three
    /// times their straight-line time if its door passed one at a time,
    /// under the best order, each walking straight at their speed and
    /// waiting only at the door (`steering_lab::crowd::door_bound`), and
    /// at most how many within the scene's whole run and the soonest all
    /// could be in, one through every headway whichever way
    /// (`steering_lab::crowd::run_bound`): one JSON line for each headway
    /// and switch.
    DoorBound {
        /// The scenes, by name.
        #[arg(long, value_delimiter = ',', default_value = "doorway")]
        scene: Vec<String>,
        /// Seconds between two going through the same way.
        #[arg(long, value_delimiter = ',', default_value = "0.77,0.85,0.9,1.0")]
        headway: Vec<f32>,
        /// Seconds between two going through opposite ways.
        #[arg(long, value_delimiter = ',', default_value = "1,1.5,2,3")]
        switch: Vec<f32>,
    },
    /// Run group scenes through the plugin (an escort, a bodyguard,
    /// followers, prey hiding, and a formation through a door, round a
    /// turn, turning about, losing and gaining members), and print one
    /// JSON line each with what they measured (`steering_lab::groups`).
    Groups {
        /// The scenes, by name (escort, bodyguard, followers, hide, door,
        /// wheel, about-face, fall-and-join), or `all`.
        #[arg(long, value_delimiter = ',', default_value = "all")]
        scene: Vec<String>,
        /// Steps a second.
        #[arg(long, value_delimiter = ',', default_value = "60")]
        hz: Vec<f64>,
        /// The formation's shape: line, column, wedge, box or circle.
        #[arg(long, default_value = "wedge")]
        shape: String,
        /// How many members the formation has.
        #[arg(long, default_value_t = 12)]
        members: usize,
        /// Neighbours' distance in the formation, px.
        #[arg(long, default_value_t = 40.0)]
        spacing: f32,
    },
    /// Move orders: units (radius 6, avoiding each other) standing among
    /// 30 rocks or in the office level, all sent with one order to one
    /// point, to ten points (ten groups) or each to a point of its own, as
    /// a strategy game's click sends them. One JSON line a run: the steps
    /// after the order until each wants to move and until each has its
    /// route (median and last), the steps' wall time before and after
    /// (median and worst, paced at 60 frames a second), the way each went
    /// against the shortest route, and the positions' hash.
    MoveOrder {
        /// Units sent.
        #[arg(long, value_delimiter = ',', default_value = "100,1000")]
        units: Vec<usize>,
        /// Where to: one, ten, each.
        #[arg(long, value_delimiter = ',', default_value = "one,ten,each")]
        goals: Vec<String>,
        /// What they stand in: rocks, office.
        #[arg(long, value_delimiter = ',', default_value = "rocks,office")]
        ground: Vec<String>,
        /// Steps a second.
        #[arg(long, value_delimiter = ',', default_value = "60,144")]
        hz: Vec<f64>,
        /// Threads in Bevy's compute pool (one a core if not given).
        #[arg(long)]
        threads: Option<usize>,
        /// The seed of the rocks and the goals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Send each unit to where it stands as it is spawned, so that the
        /// ground is made before the order (as for units sent before).
        #[arg(long)]
        sent_before: bool,
    },
    /// Time navigation on the level workload's square of obstacles: the
    /// walkable area built and routes answered (beside Polyanya on a mesh
    /// of its own, as vleue_navigator builds one), then the plugin's steps
    /// when every agent is sent somewhere new at once, and optionally a
    /// long run of agents sent on and on while rocks come and go. One JSON
    /// line each; the soak exits 1 if memory grows or a value is not
    /// finite.
    Routes {
        /// How many obstacles (at most 1,024).
        #[arg(long, default_value_t = 1_000)]
        obstacles: usize,
        /// How many routes to time.
        #[arg(long, default_value_t = 1_000)]
        routes: usize,
        /// How many times to build each area.
        #[arg(long, default_value_t = 5)]
        builds: usize,
        /// How many navigating agents in the plugin's world.
        #[arg(long, default_value_t = 1_000)]
        agents: usize,
        /// Steps timed while they walk, and again after they are sent.
        #[arg(long, default_value_t = 120)]
        steps: usize,
        /// Also run the soak for this many simulated seconds.
        #[arg(long)]
        soak_seconds: Option<f64>,
        /// Search work a second, nodes expanded (`NavigationSettings::search_per_second`;
        /// the plugin's default if not given).
        #[arg(long)]
        search_per_second: Option<u32>,
        /// Threads in Bevy's compute pool (one a core if not given).
        #[arg(long)]
        threads: Option<usize>,
        /// The seed of the level, the places and the goals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Draw the chapter's figures as PNG files into a folder.
    Figures {
        /// The folder to write into (made if missing).
        #[arg(long, default_value = "assets/figures")]
        out: PathBuf,
    },
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// Counts the bytes the program holds, for the navigation lab's memory.
#[global_allocator]
static ALLOCATOR: steering_lab::memory::Counting = steering_lab::memory::Counting;

fn main() -> ExitCode {
    steering_lab::memory::mark_installed();
    let cli = Cli::parse();
    match cli.command {
        Command::Scenario(args) => {
            let report = match args.scenario().run() {
                Ok(report) => report,
                Err(error) => return fail(error),
            };
            if let Some(path) = &args.trajectory
                && let Err(error) = std::fs::write(path, trajectory_csv(&report))
            {
                return fail(format_args!(
                    "--trajectory: cannot write {}: {error}",
                    path.display()
                ));
            }
            println!("{}", report_json(&report));
            ExitCode::SUCCESS
        }
        Command::Check => {
            let checks = all_checks();
            println!("{}", format_table(&checks));
            let failed = checks.iter().filter(|c| !c.pass).count();
            println!("\n{} passed, {failed} failed", checks.len() - failed);
            if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Bench {
            agents,
            steps,
            flock,
            level,
            obstacles,
            flyers,
            plain,
            stages,
            empty,
            threads,
            seed,
        } => {
            use steering_lab::bench;
            let workload = match (flock, level, empty, flyers) {
                (true, _, _, true) => "flock flown",
                (true, ..) => "flock",
                (_, true, ..) => "level",
                (_, _, true, _) => "empty",
                (.., true) => "critters flown",
                _ => "critters",
            };
            let mut line = json!({
                "workload": workload,
                "runs": if plain { "plain loop" } else if empty { "no plugin" } else { "plugin" },
                "agents": agents,
                "steps": steps,
                "threads": if plain { Some(1) } else { threads },
            });
            if empty {
                let mut app = bench::no_plugin_app(threads);
                line["agents"] = json!(0);
                let cpu = bench::process_cpu_time();
                line["us_per_step"] = json!(bench::ns_per_agent_step(&mut app, 1, steps) / 1000.0);
                if let (Some(before), Some(after)) = (cpu, bench::process_cpu_time()) {
                    line["cpu_us_per_step"] =
                        json!(bench::per_agent_step(after - before, 1, steps) / 1000.0);
                }
            } else if plain && flock {
                let mut plain = bench::PlainFlock::new(agents, seed);
                line["ns_per_agent_step"] =
                    json!(bench::time_per_agent_step(agents, steps, || {
                        std::hint::black_box(plain.forces_with_grid());
                    }));
            } else if plain {
                let mut plain = bench::PlainCritters::new(agents, seed);
                line["ns_per_agent_step"] =
                    json!(bench::time_per_agent_step(agents, steps, || plain.step()));
            } else {
                let mut app = if flock && flyers {
                    bench::flyer_flock_app(agents, seed, threads)
                } else if flock {
                    bench::flock_app(agents, seed, threads)
                } else if level {
                    line["obstacles"] = json!(obstacles.min(1024));
                    bench::level_app(agents, obstacles, seed, threads)
                } else if flyers {
                    bench::flyers_mix_app(agents, seed, threads)
                } else {
                    bench::critters_mix_app(agents, seed, threads)
                };
                if stages {
                    bench::time_stages(&mut app);
                }
                let cpu = bench::process_cpu_time();
                let ns = bench::ns_per_agent_step(&mut app, agents, steps);
                if let (Some(before), Some(after)) = (cpu, bench::process_cpu_time()) {
                    line["cpu_us_per_step"] =
                        json!(bench::per_agent_step(after - before, 1, steps) / 1000.0);
                }
                line["ns_per_agent_step"] = json!(ns);
                let hash = if flyers {
                    bench::flyer_positions_hash(&mut app)
                } else {
                    bench::positions_hash(&mut app)
                };
                line["positions_hash"] = json!(format!("{hash:016x}"));
                if flock && flyers {
                    line["mean_neighbors"] = json!(bench::mean_flyer_neighbors(&mut app));
                } else if flock {
                    line["mean_neighbors"] = json!(bench::mean_neighbors(&mut app));
                }
                if let Some(times) = app.world().get_resource::<bench::StageTimes>() {
                    let by_stage: serde_json::Map<_, _> = times
                        .stages
                        .iter()
                        .map(|(name, d)| {
                            (
                                name.to_string(),
                                json!(bench::per_agent_step(*d, agents, steps)),
                            )
                        })
                        .collect();
                    line["stage_ns_per_agent_step"] = serde_json::Value::Object(by_stage);
                }
            }
            if let Some(ns) = line["ns_per_agent_step"].as_f64() {
                line["us_per_step"] = json!(ns * agents.max(1) as f64 / 1000.0);
            }
            println!("{line}");
            ExitCode::SUCCESS
        }
        Command::Soak {
            agents,
            seconds,
            churn,
            threads,
            seed,
        } => {
            if !(seconds.is_finite() && seconds > 0.0 && seconds * BENCH_HZ <= MAX_STEPS as f64) {
                return fail(format_args!(
                    "--seconds: must be positive and at most {} s, not {seconds}",
                    MAX_STEPS as f64 / BENCH_HZ
                ));
            }
            if !(churn.is_finite() && (0.0..=60.0).contains(&churn)) {
                return fail(format_args!(
                    "--churn: must be a share from 0 to 60 a second, not {churn}"
                ));
            }
            let report = Soak {
                agents,
                seconds,
                churn_per_second: churn,
                seed,
                threads,
            }
            .run();
            println!(
                "{}",
                json!({
                    "agents": agents,
                    "seconds": seconds,
                    "steps": report.steps,
                    "spawned": report.spawned,
                    "despawned": report.despawned,
                    "peak_grid_bytes": report.peak_grid_bytes,
                    "final_grid_bytes": report.final_grid_bytes,
                    "peak_trail_bytes": report.peak_trail_bytes,
                    "final_trail_bytes": report.final_trail_bytes,
                    "first_half_peak_bytes": report.first_half_peak_bytes,
                    "second_half_peak_bytes": report.second_half_peak_bytes,
                    "memory_grew": report.memory_grew(),
                    "nonfinite": report.nonfinite,
                    "positions_hash": format!("{:016x}", report.positions_hash),
                    "ns_per_agent_step": report.ns_per_agent_step,
                })
            );
            if report.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Crowd {
            scene,
            method,
            hz,
            threads,
            seed,
            jitter,
            trace,
            seconds,
        } => {
            use std::io::Write;
            use steering_lab::crowd;
            if let Some(bad) = seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
                return fail(format!("--seconds must be positive, not {bad}"));
            }
            if !(0.0..=crowd::MAX_JITTER).contains(&jitter) {
                return fail(format!(
                    "--jitter must be from 0 to {} m (no two bodies starting overlapped), not {jitter}",
                    crowd::MAX_JITTER
                ));
            }
            let names: Vec<&str> = if scene.iter().any(|s| s == "all") {
                crowd::NAMES.to_vec()
            } else {
                scene.iter().map(String::as_str).collect()
            };
            let mut scenes = Vec::new();
            for name in names {
                match crowd::scene(name, seed) {
                    Some(scene) => scenes.push(crowd::CrowdScene {
                        time_limit: seconds,
                        ..scene.jittered(jitter, seed)
                    }),
                    None => {
                        return fail(format!(
                            "no crowd scene '{name}'; there are: {}",
                            crowd::NAMES.join(", ")
                        ));
                    }
                }
            }
            let mut methods = Vec::new();
            for name in &method {
                match crowd::Method::from_name(name) {
                    Some(m) => methods.push(m),
                    None => {
                        return fail(format!(
                            "no method '{name}'; there are: avoid, separation, orca, none, navigate"
                        ));
                    }
                }
            }
            if let Some(bad) = hz.iter().find(|h| !(h.is_finite() && **h > 0.0)) {
                return fail(format!("--hz must be positive, not {bad}"));
            }
            let mut trace = match trace.map(std::fs::File::create).transpose() {
                Ok(file) => file.map(std::io::BufWriter::new),
                Err(error) => return fail(format!("cannot write the trace: {error}")),
            };
            if let Some(out) = &mut trace
                && let Err(error) = writeln!(out, "scene,method,hz,step,agent,x,y")
            {
                return fail(format!("cannot write the trace: {error}"));
            }
            for scene in &scenes {
                for &hz in &hz {
                    for &m in &methods {
                        let mut failed = None;
                        let report = crowd::run_traced(scene, m, hz, threads, |step, at| {
                            let Some(out) = &mut trace else { return };
                            for (i, p) in at.iter().enumerate() {
                                let line = format!(
                                    "{},{},{hz},{step},{i},{},{}",
                                    scene.name,
                                    m.name(),
                                    p.x,
                                    p.y
                                );
                                if let Err(error) = writeln!(out, "{line}") {
                                    failed.get_or_insert(error);
                                }
                            }
                        });
                        if let Some(error) = failed {
                            return fail(format!("cannot write the trace: {error}"));
                        }
                        let mut line = report.to_json();
                        if jitter > 0.0 {
                            line["jitter_m"] = json!((f64::from(jitter) * 1e3).round() / 1e3);
                            line["seed"] = json!(seed);
                        }
                        println!("{line}");
                    }
                }
            }
            if let Some(Err(error)) = trace.as_mut().map(Write::flush) {
                return fail(format!("cannot write the trace: {error}"));
            }
            ExitCode::SUCCESS
        }
        Command::DoorBound {
            scene,
            headway,
            switch,
        } => {
            use steering_lab::crowd;
            let times = [("--headway", &headway), ("--switch", &switch)];
            for (flag, values) in times {
                if let Some(bad) = values.iter().find(|t| !(t.is_finite() && **t > 0.0)) {
                    return fail(format!("{flag} must be a positive time, not {bad}"));
                }
            }
            for name in &scene {
                let Some(scene) = crowd::scene(name, 1) else {
                    return fail(format!(
                        "no crowd scene '{name}'; there are: {}",
                        crowd::NAMES.join(", ")
                    ));
                };
                for &headway in &headway {
                    let run = crowd::run_bound(&scene, headway);
                    for &switch in &switch {
                        let Some(best) = crowd::door_bound(&scene, headway, switch) else {
                            return fail(format!("{name} has no door to go through"));
                        };
                        let line = json!({
                            "scene": name,
                            "people": scene.walkers.len(),
                            "headway_s": (f64::from(headway) * 1e3).round() / 1e3,
                            "switch_s": (f64::from(switch) * 1e3).round() / 1e3,
                            "best_within_3x": best.in_time,
                            "order": best.order,
                            "run_s": (f64::from(scene.seconds()) * 10.0).round() / 10.0,
                            "at_most_within_run": run.map(|r| r.in_run),
                            "all_in_no_sooner_s": run.map(|r| (f64::from(r.all_in) * 10.0).round() / 10.0),
                        });
                        println!("{line}");
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Command::Groups {
            scene,
            hz,
            shape,
            members,
            spacing,
        } => {
            use bevy_reynolds::FormationShape;
            use steering_lab::groups::{SCENES, Squad, run_scene};
            let shape = match shape.as_str() {
                "line" => FormationShape::Line,
                "column" => FormationShape::Column,
                "wedge" => FormationShape::Wedge,
                "box" => FormationShape::Box,
                "circle" => FormationShape::Circle,
                other => {
                    return fail(format_args!(
                        "--shape: line, column, wedge, box or circle, not {other}"
                    ));
                }
            };
            if !(1..=200).contains(&members) {
                return fail(format_args!("--members: 1 to 200, not {members}"));
            }
            if !(spacing.is_finite() && spacing > 2.0 * steering_lab::groups::RADIUS) {
                return fail(format_args!(
                    "--spacing: more than the members' width (16 px) and finite, not {spacing}"
                ));
            }
            if let Some(bad) = hz.iter().find(|hz| !(hz.is_finite() && **hz >= 1.0)) {
                return fail(format_args!("--hz: 1 or more and finite, not {bad}"));
            }
            let squad = Squad {
                shape,
                members,
                spacing,
            };
            let names: Vec<&str> = if scene.iter().any(|s| s == "all") {
                SCENES.to_vec()
            } else {
                scene.iter().map(String::as_str).collect()
            };
            if let Some(unknown) = names.iter().find(|name| !SCENES.contains(name)) {
                return fail(format_args!(
                    "--scene: {unknown} is not one of {}",
                    SCENES.join(", ")
                ));
            }
            for name in names {
                for &hz in &hz {
                    if let Some(line) = run_scene(name, hz, &squad) {
                        println!("{line}");
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Command::MoveOrder {
            units,
            goals,
            ground,
            hz,
            threads,
            seed,
            sent_before,
        } => {
            let runs = steering_lab::orders::MoveOrderRuns {
                units,
                goals,
                ground,
                hz,
                threads,
                seed,
                sent_before,
            };
            match runs.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => fail(message),
            }
        }
        Command::Routes {
            obstacles,
            routes,
            builds,
            agents,
            steps,
            soak_seconds,
            search_per_second,
            threads,
            seed,
        } => {
            use steering_lab::routes;
            if let Some(bad) = soak_seconds
                .filter(|s| !(s.is_finite() && *s > 0.0 && s * BENCH_HZ <= MAX_STEPS as f64))
            {
                return fail(format_args!(
                    "--soak-seconds: must be positive and at most {} s, not {bad}",
                    MAX_STEPS as f64 / BENCH_HZ
                ));
            }
            let r = routes::routes_workload(obstacles, routes, builds, seed);
            println!("{}", r.to_json());
            let s =
                routes::send_workload(agents, obstacles, steps, search_per_second, seed, threads);
            let mut line = s.to_json();
            line["threads"] = json!(threads);
            println!("{line}");
            let Some(seconds) = soak_seconds else {
                return ExitCode::SUCCESS;
            };
            let soak =
                routes::routes_soak(agents, obstacles, seconds, search_per_second, seed, threads);
            let mut line = soak.to_json();
            line["agents"] = json!(agents);
            line["seconds"] = json!(seconds);
            println!("{line}");
            if soak.memory_grew() || soak.nonfinite > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::Figures { out } => match steering_lab::figures::draw_all(&out) {
            Ok(paths) => {
                for path in paths {
                    println!("{}", path.display());
                }
                ExitCode::SUCCESS
            }
            Err(error) => fail(error),
        },
    }
}

//! The lab's library, number by number, and its command line's errors.

use std::process::Command;

use bevy::math::Vec2;
use steering_lab::*;

#[test]
fn every_check_of_the_chapter_passes() {
    let checks = all_checks();
    let failed: Vec<_> = checks.iter().filter(|c| !c.pass).collect();
    assert!(failed.is_empty(), "failed:\n{}", format_table(&checks));
}

/// The numbers a text quotes with a unit (seconds, pixels, degrees), such
/// as the 1.35 in "1.35 s".
fn quoted_numbers(text: &str) -> Vec<f64> {
    let mut numbers = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            let rest: String = chars[i..].iter().collect();
            let unit = rest.trim_start();
            if unit.starts_with("s") && !unit.starts_with("s²")
                || unit.starts_with("px")
                || unit.starts_with('°')
            {
                numbers.push(number.parse().unwrap());
            }
        } else {
            i += 1;
        }
    }
    numbers
}

#[test]
fn every_number_a_check_quotes_is_one_it_compares_with() {
    // A row whose chapter column quotes "1.35 s vs 2.5 s" but whose pass
    // only asks which is sooner claims more than it checks.
    assert_eq!(
        quoted_numbers("pursue sooner (1.35 s vs 2.5 s in its figure)"),
        [1.35, 2.5]
    );
    assert_eq!(quoted_numbers("~98 px (150 × 144 / 220)"), [98.0]);
    for check in all_checks() {
        for number in quoted_numbers(&check.chapter) {
            assert!(
                check.compares.contains(&number),
                "'{}' quotes {number} but compares only with {:?}",
                check.quantity,
                check.compares
            );
        }
    }
}

#[test]
fn scenario_reports_the_fields_the_cli_prints() {
    let four_seconds = |behavior| Scenario {
        seconds: 4.0,
        ..Scenario::chase(behavior)
    };
    let report = four_seconds(BehaviorKind::Pursue).run().unwrap();
    assert_eq!(report.steps, 240);
    assert_eq!(report.trajectory.len(), 241);
    assert!(report.catch_s.is_some());
    assert!(report.max_speed <= 220.0 + 1e-3);
    let seek = four_seconds(BehaviorKind::Seek).run().unwrap();
    assert!(report.catch_s.unwrap() < seek.catch_s.unwrap_or(f64::INFINITY));
}

#[test]
fn every_behavior_runs() {
    for behavior in BehaviorKind::ALL {
        let report = Scenario {
            behavior,
            start: Vec2::new(-100.0, 0.0),
            seconds: 2.0,
            level: steering_lab::Level {
                path: vec![Vec2::ZERO, Vec2::new(200.0, 0.0)],
                ..Default::default()
            },
            ..Default::default()
        }
        .run()
        .unwrap();
        assert!(report.last().pos.is_finite(), "{}", behavior.name());
        assert_eq!(BehaviorKind::from_name(behavior.name()), Some(behavior));
    }
}

#[test]
fn bad_scenarios_name_the_parameter() {
    let bad = [
        (
            "hz",
            Scenario {
                hz: 0.0,
                ..Default::default()
            },
        ),
        (
            "response",
            Scenario {
                response: -1.0,
                ..Default::default()
            },
        ),
        (
            "start",
            Scenario {
                start: Vec2::new(f32::NAN, 0.0),
                ..Default::default()
            },
        ),
        (
            "seconds",
            Scenario {
                seconds: f64::INFINITY,
                ..Default::default()
            },
        ),
        (
            "seconds",
            Scenario {
                seconds: 1e9,
                ..Default::default()
            },
        ),
        (
            "max-force",
            Scenario {
                max_force: 0.0,
                ..Default::default()
            },
        ),
    ];
    for (field, scenario) in bad {
        let error = scenario.run().unwrap_err();
        assert_eq!(error.field, field, "{error}");
    }
}

fn lab(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_steering-lab"))
        .args(args)
        .output()
        .expect("steering-lab runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

#[test]
fn the_cli_prints_one_json_object_with_exactly_the_fields() {
    let (code, out, err) = lab(&[
        "scenario",
        "--behavior",
        "arrive",
        "--response",
        "1",
        "--seconds",
        "15",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    let mut keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "catch_s",
            "final_pos",
            "final_vel",
            "lap_s",
            "max_cross_track_px",
            "max_outside_px",
            "max_speed",
            "max_turn_rate_deg_s",
            "min_clearance_px",
            "off_plane_px",
            "overshoot_px",
            "reach_s",
            "reached",
            "route_px",
            "settle_s",
            "shortest_px",
            "steps",
            "walked_px"
        ]
    );
    let overshoot = json["overshoot_px"].as_f64().unwrap();
    assert!((overshoot - 64.0).abs() < 2.0, "{overshoot}");
    assert_eq!(json["steps"], 900);
    // Walked, it never leaves its plane: there is none to leave.
    assert!(json["off_plane_px"].is_null());
}

#[test]
fn the_cli_flies_a_scenario_along_an_axis_and_says_what_is_wrong_with_one() {
    let args = [
        "scenario",
        "--behavior",
        "arrive",
        "--slow-radius",
        "50",
        "--seconds",
        "8",
    ];
    let (code, out, err) = lab(&[&args[..], &["--fly", "1,1,1", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    // The model's 21 px, flown along the diagonal, in its plane.
    let overshoot = json["overshoot_px"].as_f64().unwrap();
    assert!((overshoot - 21.0).abs() < 1.0, "{overshoot}");
    assert!(json["off_plane_px"].as_f64().unwrap() < 0.01);
    let (code, _, err) = lab(&[&args[..], &["--fly", "0,0,0"]].concat());
    assert_eq!(code, 2);
    assert!(
        err.contains("--fly: must be an axis of some length"),
        "{err}"
    );
    let (code, _, err) = lab(&[
        "scenario",
        "--behavior",
        "path",
        "--path",
        "0,0;100,0",
        "--fly",
        "1,0,0",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--fly: flyers fly the behaviors toward a target"),
        "{err}"
    );
}

#[test]
fn the_cli_takes_the_bodys_flags_and_reports_the_turn_rate() {
    let turn_rate = |extra: &[&str]| {
        let mut args = vec![
            "scenario",
            "--behavior",
            "seek",
            "--start-vel",
            "220,0",
            "--target",
            "0,300",
            "--start",
            "0,0",
            "--seconds",
            "4",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = lab(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
        json["max_turn_rate_deg_s"].as_f64().unwrap()
    };
    // A target at 90°: without a limit it turns as fast as the force lets
    // it; with 45°/s, never faster than that (60 Hz, 1e-4 rad a step).
    assert!(turn_rate(&[]) > 90.0);
    let limited = turn_rate(&[
        "--max-turn-rate",
        "45",
        "--mass",
        "2",
        "--radius",
        "10",
        "--combine",
        "priority",
    ]);
    assert!(limited <= 45.0 + 0.35, "{limited}");
    assert!(limited > 44.0, "it turns as fast as it may: {limited}");
}

#[test]
fn the_cli_writes_a_trajectory() {
    let path = std::env::temp_dir().join(format!("lab-trajectory-{}.csv", std::process::id()));
    let (code, _, err) = lab(&[
        "scenario",
        "--seconds",
        "1",
        "--hz",
        "144",
        "--target-vel",
        "-5,2",
        "--trajectory",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(&path).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("t,x,y,vx,vy,tx,ty"));
    assert_eq!(lines.count(), 145);
}

#[test]
fn the_cli_rejects_bad_input_with_one_line_naming_the_flag() {
    for (args, flag) in [
        (&["scenario", "--hz", "0"][..], "--hz"),
        (&["scenario", "--response", "-1"][..], "--response"),
        (&["scenario", "--start", "nan,0"][..], "--start"),
        (&["scenario", "--behavior", "dance"][..], "--behavior"),
        (&["scenario", "--target", "3;4"][..], "--target"),
        (&["scenario", "--target", "3"][..], "--target"),
        (&["scenario", "--start", "1,2,3"][..], "--start"),
        (&["scenario", "--max-speed", "fast"][..], "--max-speed"),
        (&["scenario", "--mass", "0"][..], "--mass"),
        (&["scenario", "--radius", "-1"][..], "--radius"),
        (
            &["scenario", "--max-turn-rate", "-5"][..],
            "--max-turn-rate",
        ),
        (
            &["scenario", "--max-turn-rate", "nan"][..],
            "--max-turn-rate",
        ),
        (&["scenario", "--combine", "average"][..], "--combine"),
        (&["scenario", "--obstacle", "circle:1,2"][..], "--obstacle"),
        (
            &["scenario", "--obstacle", "circle:1,2,-5"][..],
            "--obstacle",
        ),
        (
            &["scenario", "--obstacle", "circle:nan,2,5"][..],
            "--obstacle",
        ),
        (&["scenario", "--wall", "0,0,1"][..], "--wall"),
        (&["scenario", "--wall", "0,0,1,nan"][..], "--wall"),
        (
            &["scenario", "--contain-polygon", "0,0;1,1"][..],
            "--contain-polygon",
        ),
        (&["scenario", "--path", "0,0;x,1"][..], "--path"),
        (&["scenario", "--behavior", "path"][..], "--path"),
        (
            &["scenario", "--path-radius", "-2", "--path", "0,0;1,0"][..],
            "--path-radius",
        ),
        (&["door-bound", "--headway", "nan"][..], "--headway"),
        (&["door-bound", "--switch", "0"][..], "--switch"),
    ] {
        let (code, out, err) = lab(args);
        assert_ne!(code, 0, "{args:?} was accepted");
        assert!(out.is_empty(), "{args:?} printed {out}");
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.contains(flag),
            "{args:?}: '{first}' does not name {flag}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn the_same_seed_gives_the_same_positions_whatever_the_thread_count() {
    // More agents than the plugin's passes (and the grid's sort) take before
    // they split the work between threads.
    for flock in [false, true] {
        let hash = |threads: &str| {
            let mut args = vec![
                "bench",
                "--agents",
                "3000",
                "--steps",
                "30",
                "--threads",
                threads,
            ];
            if flock {
                args.push("--flock");
            }
            let (code, out, err) = lab(&args);
            assert_eq!(code, 0, "{err}");
            let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert!(json["ns_per_agent_step"].as_f64().unwrap() > 0.0);
            json["positions_hash"].as_str().unwrap().to_string()
        };
        assert_eq!(hash("1"), hash("2"), "flock: {flock}");
    }
}

#[test]
fn a_soak_with_spawns_on_one_spot_is_the_same_on_one_thread_and_two() {
    let soak = |threads: &str| {
        let (code, out, err) = lab(&[
            "soak",
            "--agents",
            "300",
            "--seconds",
            "4",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "{out} {err}");
        let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
        assert_eq!(json["nonfinite"], 0);
        assert_eq!(json["memory_grew"], false);
        assert!(json["spawned"].as_u64().unwrap() > 100, "{json}");
        json["positions_hash"].as_str().unwrap().to_string()
    };
    assert_eq!(soak("1"), soak("2"));
}

#[test]
fn a_soak_reports_memory_that_stays_bounded() {
    let report = Soak {
        agents: 400,
        seconds: 8.0,
        churn_per_second: 0.5,
        threads: None,
        seed: 3,
    }
    .run();
    assert!(report.passed(), "{report:?}");
    // Half the agents replaced every second: 1,600 spawned in 8 s, and
    // memory no larger in the second half than in the first.
    assert_eq!(report.spawned, 1_600);
    assert!(report.second_half_peak_bytes <= report.first_half_peak_bytes * 11 / 10);
    assert!(report.peak_grid_bytes > 0 && report.peak_trail_bytes > 0);
}

#[test]
fn the_cli_runs_a_level_and_reports_it() {
    // A rock in the way, a wall beside it, an area: clear of all, it arrives.
    let (code, out, err) = lab(&[
        "scenario",
        "--behavior",
        "seek",
        "--start",
        "0,0",
        "--target",
        "400,0",
        "--radius",
        "10",
        "--obstacle",
        "circle:200,6,40",
        "--wall",
        "300,-200,300,-120",
        "--contain",
        "-100,-300,600,300",
        "--seconds",
        "6",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert!(json["min_clearance_px"].as_f64().unwrap() >= 0.0, "{json}");
    assert_eq!(json["reached"], true, "{json}");
    assert_eq!(json["max_outside_px"].as_f64().unwrap(), 0.0, "{json}");
    // A looped path: lapped, and never far off it.
    let (code, out, err) = lab(&[
        "scenario",
        "--behavior",
        "path",
        "--start",
        "0,0",
        "--path",
        "0,0;400,0;400,300;0,300",
        "--path-radius",
        "20",
        "--loop",
        "--seconds",
        "10",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert!(json["lap_s"].as_f64().unwrap() < 10.0, "{json}");
    assert!(
        json["max_cross_track_px"].as_f64().unwrap() < 60.0,
        "{json}"
    );
}

/// The crowd lab's circle of 250 (enough agents that avoidance splits
/// between threads), and its door taking turns (the plugin's `TakeTurns`),
/// on one thread and two, each in its own process (Bevy makes its compute
/// pool once a process): the same positions to the bit.
#[test]
fn a_crowd_gives_the_same_bits_on_one_thread_and_two() {
    let hash = |scene: &str, threads: &str| {
        let (code, out, err) = lab(&[
            "crowd",
            "--scene",
            scene,
            "--method",
            "avoid",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
        assert_eq!(json["reached"], json["agents"], "{json}");
        json["positions_hash"].as_str().expect("a hash").to_owned()
    };
    for scene in ["circle-250", "doorway-turns"] {
        assert_eq!(hash(scene, "1"), hash(scene, "2"), "{scene}");
    }
}

/// `steering-lab crowd` says when the last arrived, and only if everyone
/// did: one person walking 10 m through a door, to within 0.5 m of the
/// goal, is there no sooner than 9.5 m at 1.3 m/s allows and within the
/// 1.3 times the straight line the pairs are held to; cut the run short
/// and nobody has.
#[test]
fn a_crowd_says_when_the_last_arrived() {
    let run = |seconds: &str| {
        let (code, out, err) = lab(&[
            "crowd",
            "--scene",
            "door-solo",
            "--method",
            "avoid",
            "--seconds",
            seconds,
        ]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(out.trim()).expect("JSON")
    };
    let whole = run("30");
    let last = whole["all_arrived_s"].as_f64().expect("a time");
    assert!((9.5 / 1.3..=1.3 * 10.0 / 1.3).contains(&last), "{whole}");
    let cut = run("3");
    assert_eq!(cut["reached"], 0, "{cut}");
    assert!(cut["all_arrived_s"].is_null(), "{cut}");
}

/// `--method navigate` sends each person with the plugin's `Navigate`,
/// not the scene's route through the door: alone, they find the door and
/// arrive within the 1.3 times the straight line the pairs are held to
/// (1.10), by a way of their own (not the scene route's positions).
#[test]
fn a_crowd_sent_with_navigate_finds_its_own_way() {
    let run = |method: &str| {
        let (code, out, err) = lab(&["crowd", "--scene", "door-solo", "--method", method]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(out.trim()).expect("JSON")
    };
    let (sent, routed) = (run("navigate"), run("avoid"));
    assert_eq!(sent["reached"], 1, "{sent}");
    assert!(sent["time_ratio_max"].as_f64().unwrap() <= 1.3, "{sent}");
    assert_ne!(sent["positions_hash"], routed["positions_hash"]);
}

/// `steering-lab routes`, small: our routes as long as Polyanya's on its
/// own mesh (its round offsets are a polygon of a few sides, ours a
/// circumscribed one of 32: within 1%), every first and new route planned,
/// the world the same on one thread and two (the ground is made off the
/// step but taken at a fixed step), and a short soak of goals and rocks
/// coming and going with memory bounded and every value finite.
#[test]
fn the_routes_lab_measures_ours_beside_polyanya_the_same_on_any_thread_count() {
    let run = |threads: &str, soak: &str| {
        let (code, out, err) = lab(&[
            "routes",
            "--obstacles",
            "120",
            "--routes",
            "60",
            "--builds",
            "1",
            "--agents",
            "120",
            "--steps",
            "60",
            "--threads",
            threads,
            "--soak-seconds",
            soak,
        ]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("JSON"))
            .collect::<Vec<_>>()
    };
    let one = run("1", "30");
    let [routes, send, soak] = one.as_slice() else {
        panic!("three lines: {one:?}");
    };
    assert_eq!(routes["routes"], 60, "{routes}");
    assert_eq!(routes["peer_failed"], 0, "{routes}");
    for key in ["length_vs_peer_min", "length_vs_peer_max"] {
        let ratio = routes[key].as_f64().unwrap();
        assert!((0.99..=1.01).contains(&ratio), "{routes}");
    }
    assert!(routes["area_bytes"].as_u64().unwrap() > 0, "{routes}");
    assert!(send["send_steps"].as_u64().unwrap() > 0, "{send}");
    assert_eq!(soak["memory_grew"], false, "{soak}");
    assert_eq!(soak["nonfinite"], 0, "{soak}");
    assert!(soak["arrivals"].as_u64().unwrap() > 0, "{soak}");
    let two = run("2", "1");
    assert_eq!(two[1]["positions_hash"], send["positions_hash"]);
}

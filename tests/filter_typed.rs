//! The typed filter language on real games: `pgnkit filter --count`
//! against counts computed here, independently, from the tags of every
//! game of the pgnmentor archive; and the usage errors of the language as
//! the binary reports them.

mod cli_support;
mod common;

use pgnkit::filter::read_tags;
use pgnkit::input;
use pgnkit::pgn::GameFramer;

/// The tags of one game that the expressions below look at.
#[derive(Debug, Default)]
struct Game {
    date: String,
    white: String,
    black: String,
    white_elo: String,
    black_elo: String,
    result: String,
    eco: String,
    site: String,
}

/// A PGN date's year and month, each `None` when unknown; `None` when the
/// text is no date.
fn year_month(date: &str) -> Option<(Option<u32>, Option<u32>)> {
    let mut parts = date.trim().split('.');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let read = |p: &str| -> Option<Option<u32>> {
        if p.bytes().all(|b| b == b'?') {
            Some(None)
        } else if p.bytes().all(|b| b.is_ascii_digit()) {
            p.parse().ok().map(Some)
        } else {
            None
        }
    };
    let (year, month, _) = (read(y)?, read(m)?, read(d)?);
    Some((year, if year.is_some() { month } else { None }))
}

fn year(g: &Game) -> Option<u32> {
    year_month(&g.date).and_then(|(y, _)| y)
}

fn elo(text: &str) -> Option<f64> {
    text.trim().parse().ok()
}

/// Every game of the archive, its tags read by the PGN reader alone.
fn games(path: &std::path::Path) -> Vec<Game> {
    let mut framer = GameFramer::for_input(input::open(path).expect("open the archive"));
    let mut games = Vec::new();
    while let Some(game) = framer.next_game() {
        let game = game.expect("frame the archive");
        let tags = read_tags(game.bytes);
        let tag = |name: &str| {
            tags.iter()
                .find(|t| t.is(name))
                .map(|t| t.value_text().into_owned())
                .unwrap_or_default()
        };
        games.push(Game {
            date: tag("Date"),
            white: tag("White"),
            black: tag("Black"),
            white_elo: tag("WhiteElo"),
            black_elo: tag("BlackElo"),
            result: tag("Result"),
            eco: tag("ECO"),
            site: tag("Site"),
        });
    }
    games
}

type Rule = fn(&Game) -> bool;

#[test]
fn filter_counts_agree_with_the_tags_on_pgnmentor() {
    let Some(data) = common::data_dir() else {
        return;
    };
    let path = data.join("big/pgnmentor-12-players.pgn.zst");
    let games = games(&path);
    assert_eq!(games.len(), 31_990);
    // (expression, the same condition computed from the tags)
    let cases: [(&str, Rule); 16] = [
        ("Date >= 2000", |g| year(g).is_some_and(|y| y >= 2000)),
        ("Date < 2000", |g| year(g).is_some_and(|y| y < 2000)),
        ("Date = 1994", |g| year(g) == Some(1994)),
        ("Date != 1994", |g| year(g).is_some_and(|y| y != 1994)),
        ("Date > 1994 and Date <= 1996", |g| {
            year(g).is_some_and(|y| (1995..=1996).contains(&y))
        }),
        ("Date >= 2010.06", |g| match year_month(&g.date) {
            Some((Some(y), m)) => y > 2010 || (y == 2010 && m.is_some_and(|m| m >= 6)),
            _ => false,
        }),
        ("Date = 1994.??.??", |g| year(g) == Some(1994)),
        ("Date in 1990..1992.06", |g| match year_month(&g.date) {
            Some((Some(y), m)) => {
                (1990..=1991).contains(&y) || (y == 1992 && m.is_some_and(|m| m <= 6))
            }
            _ => false,
        }),
        (
            "WhiteElo > BlackElo",
            |g| matches!((elo(&g.white_elo), elo(&g.black_elo)), (Some(w), Some(b)) if w > b),
        ),
        ("WhiteElo <= BlackElo and winner = white", |g| {
            g.result == "1-0"
                && matches!((elo(&g.white_elo), elo(&g.black_elo)), (Some(w), Some(b)) if w <= b)
        }),
        ("WhiteElo >= 2700 and BlackElo < 2600", |g| {
            elo(&g.white_elo).is_some_and(|w| w >= 2700.0)
                && elo(&g.black_elo).is_some_and(|b| b < 2600.0)
        }),
        ("elo >= 2800", |g| {
            elo(&g.white_elo).is_some_and(|w| w >= 2800.0)
                || elo(&g.black_elo).is_some_and(|b| b >= 2800.0)
        }),
        ("White ~ carlsen and Black = \"Anand,V\"", |g| {
            g.white.to_lowercase().contains("carlsen") && g.black == "Anand,V"
        }),
        ("Site =~ /^(Moscow|London)/ or ECO in B20..B99", |g| {
            g.site.starts_with("Moscow")
                || g.site.starts_with("London")
                || (g.eco.as_str() >= "B20" && g.eco.as_str() <= "B99")
        }),
        ("Result = 1/2-1/2 and not Date < 2005", |g| {
            g.result == "1/2-1/2" && year(g).is_none_or(|y| y >= 2005)
        }),
        ("White = Black", |g| {
            !g.white.is_empty() && g.white == g.black
        }),
    ];
    for (expr, rule) in cases {
        let expected = games.iter().filter(|g| rule(g)).count();
        let cli_support::Out {
            code,
            stdout: out,
            stderr: err,
        } = cli_support::pgnkit(&["filter", "--count", "-e", expr, path.to_str().unwrap()]);
        assert!(code <= 1, "{expr}: {err}");
        let got: usize = out
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{expr}: {out}"));
        assert_eq!(got, expected, "{expr}");
        // The data must exercise the condition both ways.
        assert!(
            expr == "White = Black" || (0 < expected && expected < games.len()),
            "{expr}: {expected}"
        );
    }
}

/// Type errors, unknown fields and their messages, with the caret under
/// the mistake; the exit status is 2 and nothing is written.
#[test]
fn typing_mistakes_are_usage_errors() {
    let cases = [
        (
            "Date > Carlsen",
            "column 8: `Date` is a date and `Carlsen` is text: they do not compare",
            7,
        ),
        (
            "white = Carlsen",
            "column 1: unknown field `white`: did you mean `White`?",
            0,
        ),
        (
            "WhiteElo > White",
            "column 12: `WhiteElo` is a number and `White` is text: they do not compare",
            11,
        ),
        (
            "status > 3",
            "column 10: `status` is a status and `3` is a number: they do not compare",
            9,
        ),
        (
            "status > mate",
            "column 8: `>` does not apply to `status` (a status): use = or !=",
            7,
        ),
        (
            "plies =~ /1/",
            "column 7: `=~` does not apply to `plies` (a number computed from the game): \
             ~, =~ and !~ search the text of tags",
            6,
        ),
        (
            "Date >= 2020.13",
            "column 9: `2020.13` is no date (YYYY, YYYY.MM or YYYY.MM.DD; unknown parts ??)",
            8,
        ),
    ];
    for (expr, message, caret) in cases {
        let cli_support::Out {
            code,
            stdout: out,
            stderr: err,
        } = cli_support::pgnkit(&["filter", "-e", expr, "fixtures/myschach.pgn"]);
        assert_eq!((code, out.as_str()), (2, ""), "{expr}");
        assert_eq!(
            err,
            format!(
                "pgnkit: filter expression, {message}\n  {expr}\n  {}^\n",
                " ".repeat(caret)
            ),
            "{expr}"
        );
    }
}

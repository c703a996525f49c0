//! The PGN reader's promises, one test per item: tags, movetext tokens,
//! results, NAGs, errors with positions, batching.

mod common;

use pgnkit::pgn::{
    Comment, GameFramer, Outcome, ParsePgnError, ParsePgnErrorKind, RawGame, Reader, Span,
    TokenKind, Tokens, Visitor, parse_game,
};

fn parse(text: &[u8]) -> pgnkit::pgn::Game<'_> {
    parse_game(&RawGame::from_bytes(text))
}

#[test]
fn myschach_header_comes_through() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/myschach.pgn"
    ))
    .expect("fixture");
    let mut framer = GameFramer::new(&text[..]);
    let raw = framer.next_game().expect("a game").expect("ok");
    let game = parse_game(&raw);
    let names: Vec<&[u8]> = game.tags.iter().map(|t| t.name).collect();
    let expected: Vec<&[u8]> = [
        "Event",
        "Site",
        "Date",
        "Round",
        "Board",
        "White",
        "Black",
        "Result",
        "ECO",
        "WhitemyELO",
        "BlackmyELO",
        "TimeControl",
        "WhiteDays",
        "BlackDays",
        "mySchachNr",
    ]
    .iter()
    .map(|s| s.as_bytes())
    .collect();
    assert_eq!(names, expected);
    assert_eq!(
        game.tag("TimeControl").map(|t| t.value),
        Some(&b"10/2592000"[..])
    );
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    let last = game.mainline.moves.last().expect("moves");
    assert_eq!((last.text, last.draw_offer), (&b"Qxc4"[..], true));
    assert_eq!(game.result.map(|r| r.outcome), Some(Outcome::Draw));
}

#[test]
fn result_spellings() {
    let cases: &[(&str, Option<Outcome>)] = &[
        ("e4 1-0", Some(Outcome::WhiteWins)),
        ("e4 0-1", Some(Outcome::BlackWins)),
        ("e4 1/2-1/2", Some(Outcome::Draw)),
        ("e4 ½-½", Some(Outcome::Draw)),
        ("e4 1/2", Some(Outcome::Draw)),
        ("e4 *", Some(Outcome::Unknown)),
        ("e4", None),
    ];
    for &(text, expected) in cases {
        let game = parse(text.as_bytes());
        assert_eq!(game.result.map(|r| r.outcome), expected, "{text}");
        assert!(game.errors.is_empty(), "{text}: {:?}", game.errors);
    }
    // Windows-1252 `½`.
    assert_eq!(
        parse(b"e4 \xbd-\xbd").result.map(|r| r.outcome),
        Some(Outcome::Draw)
    );
    // `0-0` is always castling (a double forfeit is no PGN result).
    let game = parse(b"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0");
    assert_eq!(game.mainline.moves.len(), 7);
    assert_eq!(game.result, None);
}

#[test]
fn glyphs_and_nags() {
    let cases: &[(&str, &[u8])] = &[
        ("e4!", &[1]),
        ("e4?", &[2]),
        ("e4!!", &[3]),
        ("e4??", &[4]),
        ("e4!?", &[5]),
        ("e4?!", &[6]),
        ("e4 $0 $255", &[0, 255]),
        ("e4!? $14", &[5, 14]),
    ];
    for &(text, nags) in cases {
        let game = parse(text.as_bytes());
        assert_eq!(game.mainline.moves[0].nags, nags, "{text}");
        assert!(game.errors.is_empty(), "{text}: {:?}", game.errors);
    }
    let game = parse(b"e4 $256");
    assert_eq!(game.errors[0].kind, ParsePgnErrorKind::BadNag);
}

#[test]
fn move_tokens_are_classified_and_kept() {
    let game = parse(b"1. e4 d5 2. e5 f5 3. exf6 e.p. Nf6 4. Nf3zzz e8=Q 5. O-O-O+ --");
    let texts: Vec<&[u8]> = game.mainline.moves.iter().map(|m| m.text).collect();
    assert_eq!(
        texts,
        [
            &b"e4"[..],
            b"d5",
            b"e5",
            b"f5",
            b"exf6",
            b"Nf6",
            b"Nf3zzz",
            b"e8=Q",
            b"O-O-O+",
            b"--"
        ]
    );
    assert!(game.mainline.moves[4].ep_mark.is_some());
    let bad: Vec<usize> = game
        .mainline
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.token.is_err())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(bad, [6]);
    let error = game
        .errors
        .iter()
        .find(|e| matches!(e.kind, ParsePgnErrorKind::BadMove(_)));
    assert_eq!(
        error.map(|e| e.span.slice(game.source)),
        Some(&b"Nf3zzz"[..])
    );
}

#[test]
fn move_number_forms() {
    let text = "1.e4 1...e5 2. Nf3 2... Nc6 3…Bb5 3. ... a6 4 Ba4".as_bytes();
    let moves: Vec<&[u8]> = Tokens::new(text)
        .filter_map(|t| match t.kind {
            TokenKind::Move(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(
        moves,
        [&b"e4"[..], b"e5", b"Nf3", b"Nc6", b"Bb5", b"a6", b"Ba4"]
    );
}

#[test]
fn errors_know_their_line_and_column() {
    let text = b"[Event \"x\"]\r\n\r\n1. e4 e5\r\n2. Nf3 ] Nc6 *";
    let game = parse(text);
    let error = game
        .errors
        .iter()
        .find(|e| e.kind == ParsePgnErrorKind::UnexpectedByte);
    assert_eq!(error.map(|e| game.line_col(e.span)), Some((4, 8)));
}

#[test]
fn tag_text_is_decoded_on_request() {
    let game = parse(b"[White \"M\xfcller\"]\n[Black \"S\xc3\xb6ren \\\"S\\\"\"]\n*");
    assert_eq!(game.tags[0].value_text(), "Müller");
    assert_eq!(game.tags[1].value_text(), "Sören \"S\"");
}

#[test]
fn batches_of_owned_games_parse_like_borrowed_ones() {
    let text = b"[A \"1\"]\n1. e4 *\n\n[A \"2\"]\n1. d4 *\n\n1. c4 *\n";
    let mut framer = GameFramer::new(&text[..]);
    let mut batch = Vec::new();
    let mut infos = Vec::new();
    while let Some(info) = framer.next_game_into(&mut batch) {
        infos.push((info.expect("ok"), batch.len()));
    }
    let mut start = 0;
    let mut lines = Vec::new();
    for (info, end) in infos {
        let game = parse_game(&info.with_bytes(&batch[start..end]));
        lines.push((
            game.number,
            game.first_line,
            game.mainline.moves[0].text.to_vec(),
        ));
        start = end;
    }
    assert_eq!(
        lines,
        [
            (1, 1, b"e4".to_vec()),
            (2, 4, b"d4".to_vec()),
            (3, 7, b"c4".to_vec())
        ]
    );
}

/// What a reader that wants comments is told of them, in order: each
/// comment, draw offer and draw offer out of place, by span.
#[derive(Default)]
struct Annotations(Vec<Span>);

impl<'a> Visitor<'a> for Annotations {
    type Output = Vec<Span>;
    const COMMENTS: bool = true;

    fn comment(&mut self, comment: Comment<'a>) {
        self.0.push(comment.span);
    }

    fn draw_offer(&mut self, span: Span) {
        self.0.push(span);
    }

    fn syntax_error(&mut self, error: ParsePgnError) {
        if error.kind == ParsePgnErrorKind::NagWithoutMove {
            self.0.push(error.span);
        }
    }

    fn end_game(&mut self) -> Vec<Span> {
        std::mem::take(&mut self.0)
    }
}

/// The reader reports comments on its own path past the moves (through
/// the framer's comment index, without a token each): over every file of
/// ../shared/data, it reports the comments, line comments and draw offers
/// the tokenizer reads, in order and at the same spans.
#[test]
fn comments_reported_as_tokenized() {
    let Some(files) = common::pgn_files(&["corpus", "broken"], false) else {
        return;
    };
    let mut reader = Reader::new(pgnkit::pgn::DEFAULT_MAX_DEPTH);
    let (mut games, mut comments) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut framer = GameFramer::new(&bytes[..]);
        while let Some(raw) = framer.next_game() {
            let Ok(raw) = raw else { continue };
            if raw.marks.first_nul().is_some() {
                continue;
            }
            let reported = reader.read(&raw, &mut Annotations::default());
            let tokenized: Vec<Span> = Tokens::new(raw.bytes)
                .filter(|t| {
                    matches!(
                        t.kind,
                        TokenKind::Comment(_) | TokenKind::LineComment(_) | TokenKind::DrawOffer
                    )
                })
                .map(|t| t.span)
                .collect();
            assert_eq!(
                reported,
                tokenized,
                "{} game {}",
                path.display(),
                raw.number
            );
            games += 1;
            comments += reported.len();
        }
    }
    eprintln!("{games} games, {comments} comments");
    assert!(
        games > 5_000 && comments > 10_000,
        "{games} games, {comments} comments"
    );
}

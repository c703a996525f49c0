/// File, diagnostics (`E`/`W`/`N` + line + kind, repeats on a line listed
/// once), what the file breaks.
const BROKEN: &[(&str, &str, &str)] = &[
    (
        "chess.js/0.pgn",
        "E1:bad-move E1:syntax",
        "a whole game on one line with HTML `<br />` between tags and moves: `<br` is no move, the tags after it are tag pairs inside movetext",
    ),
    (
        "chess.js/1.pgn",
        "",
        "valid (Fischer-Spassky 1972, resignation on an unfinished board)",
    ),
    (
        "chess.js/2.pgn",
        "",
        "valid (fool's mate, moves split over lines)",
    ),
    (
        "chess.js/3.pgn",
        "",
        "valid (FEN start with Black to move, `1. ... Ba5`)",
    ),
    (
        "chessops/headers-and-moves-on-the-same-line.pgn",
        "N1:unsupported-variant N3:unsupported-variant N6:unsupported-variant",
        "three Antichess games: unsupported variant, skipped (a note each)",
    ),
    (
        "chessops/leading-whitespace.pgn",
        "W3:missing-result W5:missing-result W11:move-number E11:illegal",
        "indented tag lines read as tags; games without a termination marker; \
         the last, without tags, runs on from the one before it (1. e4 again)",
    ),
    (
        "chessops/pathological-headers.pgn",
        "W1:no-moves",
        "escaped quotes and brackets in tag values read right; a tag section alone",
    ),
    (
        "chessx/t1.pgn",
        "W12:missing-result E7:result-contradicts",
        "`1-0` recorded although Black mates; no termination marker",
    ),
    (
        "mliebelt-pgn-parser/sampleGameThrow.pgn",
        "W2:lint W2:missing-result",
        "German `Sf3` in an English game: read as a knight (lint), not as pawn `f3` (python-chess bug 1)",
    ),
    (
        "pgn-extract/nested-comment.pgn",
        "E1:bad-move E2:bad-move E2:syntax",
        "`{` inside a comment does not nest: the rest of the text after the first `}` is garbage movetext",
    ),
    (
        "pgn-extract/test-allownullmoves.pgn",
        "W11:null-move W23:null-move",
        "null moves `--` in the mainline: warnings, the games go on (1 mate)",
    ),
    ("pgn-extract/test-evaluation.pgn", "", "valid (fool's mate)"),
    (
        "pgn-extract/test-fixresulttags-in.pgn",
        "E13:result-contradicts E34:result-contradicts E50:result-contradicts E65:result-contradicts E81:result-contradicts",
        "five results that contradict the board: loss for the mating side, decisive result on a stalemate, draws on mated boards",
    ),
    (
        "pgn-extract/test-fuzzydepth.pgn",
        "E2:syntax E2:illegal E3:syntax E4:syntax",
        "four one-line games without blank lines frame as one game: movetext after the result, an illegal `Nf3`, second results",
    ),
    (
        "pgn-extract/test-long-line.pgn",
        "",
        "valid (very long movetext line)",
    ),
    (
        "pgn-extract/test-nagcomments.pgn",
        "",
        "valid (NAGs inside and around comments)",
    ),
    (
        "pgn-extract/test-nobadresults.pgn",
        "E1:result-mismatch E2:result-mismatch E3:result-mismatch E4:result-mismatch E5:result-mismatch E6:result-mismatch E7:result-mismatch E8:result-mismatch E9:result-mismatch",
        "nine games whose Result tag disagrees with the termination marker",
    ),
    (
        "pgn-extract/test-nomovenumbers.pgn",
        "",
        "valid (movetext without move numbers)",
    ),
    (
        "pgn-extract/test-noresults.pgn",
        "",
        "valid (comment + blank line before the movetext keeps one game)",
    ),
    (
        "pgn-extract/test-notags.pgn",
        "",
        "valid (games without tags)",
    ),
    (
        "pgn-extract/test-promotion-in.pgn",
        "W4:lint W9:lint W14:lint W19:lint W24:lint W29:lint W34:lint W39:lint",
        "UCI promotions `d7d8R`/`d7d8n` from a FEN: legal, one UCI lint per game",
    ),
    (
        "pgn-read/4ncl_96-97_01.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_96-97_02.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_96-97_03.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_96-97_04.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_96-97_05.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_96-97_06.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/4ncl_97-98_07.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/Little_01.pgn",
        "E1:bad-move E2:bad-move E3:bad-move E4:bad-move E4:syntax E6:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_02.pgn",
        "E4:syntax E4:bad-move E6:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_03.pgn",
        "W4:bad-result-tag E4:bad-move E6:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_04.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_05.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_06.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_07.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_08.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_09.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_10.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_11.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_12.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_13.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_14.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_15.pgn",
        "W4:bad-result-tag E4:bad-move E5:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_16.pgn",
        "E1:bad-move E2:bad-move E3:bad-move W4:bad-result-tag E4:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/Little_17.pgn",
        "E1:bad-move E2:bad-move E3:bad-move W4:bad-result-tag E4:bad-move E6:bad-move E7:bad-move E8:bad-move E9:bad-move E10:bad-move E11:bad-move E12:bad-move E13:syntax E13:bad-move E14:bad-move",
        "long algebraic with HTML `<br>` breaks, `0-<br>0` and mangled result tags: unreadable tokens reported where they stand",
    ),
    (
        "pgn-read/all_4ncl_1996_2010_08.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/all_4ncl_1996_2010_09.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/all_4ncl_1996_2010_10.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/break_pgn_0_8_1_a.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/break_pgn_0_8_1_b.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/break_pgn_0_8_1_c.pgn",
        "W39:lint",
        "valid; an over-specified origin (SAN disambiguation counts legal moves only)",
    ),
    (
        "pgn-read/calgames_01.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_02.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_03.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_04.pgn",
        "W17:lint",
        "valid; an over-specified origin (SAN disambiguation counts legal moves only)",
    ),
    (
        "pgn-read/calgames_05.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_06.pgn",
        "W1:unescaped-quote",
        "valid; a tag value with unescaped quotes (`\"C\"` inside the Event value), read to the last quote",
    ),
    (
        "pgn-read/calgames_07.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_08.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_09.pgn",
        "",
        "valid (long comments with `%` and brackets, which other readers stumble on)",
    ),
    (
        "pgn-read/calgames_10.pgn",
        "W16:lint",
        "valid; an over-specified origin (SAN disambiguation counts legal moves only)",
    ),
    (
        "pgn-read/calgames_11.pgn",
        "W36:lint",
        "valid; an over-specified origin (SAN disambiguation counts legal moves only)",
    ),
    (
        "pychess/a.pgn",
        "W9:bad-result-tag W11:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/b.pgn",
        "W9:bad-result-tag W12:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/badpgn.pgn",
        "E1:syntax E2:bad-move E3:bad-move",
        "garbage tag line and movetext `g(erg) r23`",
    ),
    (
        "pychess/black.pgn",
        "W9:bad-result-tag W12:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/c.pgn",
        "W9:bad-result-tag W16:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/d.pgn",
        "W9:bad-result-tag W14:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/draw.pgn",
        "W9:bad-result-tag W15:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/e.pgn",
        "W9:bad-result-tag W16:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/f.pgn",
        "W9:bad-result-tag W12:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "pychess/promotion.pgn",
        "W9:bad-result-tag W12:missing-result",
        "empty `Result` tag and no termination marker (GNU Chess output)",
    ),
    (
        "python-chess/uci-moves.pgn",
        "W9:lint",
        "a whole game in UCI: one lint for the game (counted)",
    ),
    (
        "scid/res_gameLatin1.pgn",
        "",
        "valid (tags and movetext on one line, Latin-1 names, long comments)",
    ),
    (
        "scid/res_gameLatin1expected.pgn",
        "",
        "valid (tags and movetext on one line, Latin-1 names, long comments)",
    ),
    (
        "scid/res_gameUTF8.pgn",
        "",
        "valid (tags and movetext on one line, Latin-1 names, long comments)",
    ),
    (
        "shakmaty/bare.pgn",
        "W2:missing-result",
        "movetext only, no termination marker",
    ),
];

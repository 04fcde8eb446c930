"""English messages of the coach: hints, card counting, the review of a deal."""

MESSAGES: dict[str, str | dict[str, str]] = {
    # card counting
    "coach_unseen": "Unseen: {items}",
    "coach_unseen_tens": {"one": "{n} ten", "other": "{n} tens"},
    "coach_unseen_jacks": {"one": "{n} Jack", "other": "{n} Jacks"},
    "coach_unseen_aces": {"one": "{n} Ace", "other": "{n} Aces"},
    "coach_unseen_queens": "{n} {card}",
    "coach_stock": {"one": "Stock: {n} card", "other": "Stock: {n} cards"},
    "coach_risk": "Next player ({name}) can match a lone card: {items}",
    "coach_risk_item": "{rank} — {pct}%",
    # why a move is good
    "coach_double_foxtrot": "makes a double foxtrot: {total:+d}",
    "coach_foxtrot": "makes a foxtrot: {total:+d}",
    "coach_takes_points": {"one": "takes {n} point", "other": "takes {n} points"},
    "coach_takes_cards": {"one": "takes {n} card", "other": "takes {n} cards"},
    "coach_takes_loss": {
        "one": "takes {n} card despite the {card}: {points:+d}",
        "other": "takes {n} cards despite the {card}: {points:+d}",
    },
    "coach_takes_lone": "takes the lone {card}: the next player must start a new pile",
    "coach_avoids": "avoids taking the {card}",
    "coach_poisons": "feeds the pile with the {card}: -20 for whoever takes it",
    "coach_lone_safe": "leaves a lone {card} the next player cannot match",
    "coach_lone_risk": "leaves a lone {card}: the next player can match it ({pct}%)",
    "coach_no_lone": "leaves no lone card for a foxtrot",
    "coach_nothing_to_take": "keeps the pile small: nothing in it is worth taking",
    "coach_lays": {
        "one": "lays {card}: the pile holds {n} card, {points:+d} in points",
        "other": "lays {card}: the pile holds {n} cards, {points:+d} in points",
    },
    "coach_only_move": "the only legal move: {reason}",
    "coach_take": "take the pile",
    # the review of a deal
    "coach_grade_good": "good",
    "coach_grade_inaccuracy": "inaccuracy",
    "coach_grade_mistake": "mistake",
    "coach_review_good": "Deal {deal}, move {move}: {played} — {grade} ({reason}).",
    "coach_review_worse": (
        "Deal {deal}, move {move}: {played} — {grade}, {lost}; better {best} ({reason})."
    ),
    "coach_best_value": "{best}, expected margin {best_value:+d} against {value:+d}",
    "coach_lost": {"one": "-{n} point", "other": "-{n} points"},
    "coach_summary": "{good}, {inaccuracies}, {mistakes}; {lost}",
    "coach_n_good": {"one": "{n} good move", "other": "{n} good moves"},
    "coach_n_inaccuracies": {"one": "{n} inaccuracy", "other": "{n} inaccuracies"},
    "coach_n_mistakes": {"one": "{n} mistake", "other": "{n} mistakes"},
    "coach_total_lost": {"one": "{n} point lost in all", "other": "{n} points lost in all"},
    # a hint compared with the next best move
    "coach_alt_play": "playing {card}",
    "coach_alt_take": "taking the pile",
    "coach_hint_better": {
        "one": "{reason}; {alt} instead is {n} point worse — it {alt_reason}",
        "other": "{reason}; {alt} instead is {n} points worse — it {alt_reason}",
    },
    "coach_hint_close": "{reason}; {alt} is about as good — it {alt_reason}",
    "coach_hint_better_same": {
        "one": "{reason}; {alt} does the same now but is {n} point worse later",
        "other": "{reason}; {alt} does the same now but is {n} points worse later",
    },
    "coach_hint_close_same": "{reason}; {alt} is about as good",
    # the verdict on a deal
    "coach_points": {"one": "{n} point", "other": "{n} points"},
    "coach_others": {
        "one": "{points:+d} for the other player",
        "other": "{points:+d} for the others on average",
    },
    "coach_verdict_won": (
        "Deal {deal} won: {score:+d} against {others}"
        " (margin {margin:+d}); your choices cost {lost} of expected margin."
    ),
    "coach_verdict_choices": (
        "Deal {deal} lost: {score:+d} against {others}"
        " (margin {margin:+d}); your choices cost {lost} of expected margin."
    ),
    "coach_verdict_cards": (
        "Deal {deal} lost: {score:+d} against {others}"
        " (margin {margin:+d}), yet your choices cost only {lost} of expected margin:"
        " the deal was lost by the cards{tempo}."
    ),
    "coach_verdict_tempo": (
        " and the tempo (under take = any whoever faces a pile can take it, so the player"
        " who starts the piles can hardly score: you started {started} of {piles})"
    ),
    "coach_verdict_costliest": (
        "The costliest move: move {move}, {played} ({value:+d}); better {best} ({best_value:+d})."
    ),
    "coach_verdict_closest": (
        "The choice that mattered most: move {move}, {best} ({best_value:+d}) over {second}"
        " ({second_value:+d})."
    ),
    "coach_verdict_forced": "Every move was forced: there was nothing to choose.",
}

"""Українські повідомлення підказувача: підказки, підрахунок карт, розбір роздачі."""

MESSAGES: dict[str, str | dict[str, str]] = {
    # підрахунок карт
    "coach_unseen": "Ще не вийшли: {items}",
    "coach_unseen_tens": {"one": "{n} десятка", "few": "{n} десятки", "many": "{n} десяток"},
    "coach_unseen_jacks": {"one": "{n} валет", "few": "{n} валети", "many": "{n} валетів"},
    "coach_unseen_aces": {"one": "{n} туз", "few": "{n} тузи", "many": "{n} тузів"},
    "coach_unseen_queens": "{n} {card}",
    "coach_stock": {
        "one": "У запасі: {n} карта",
        "few": "У запасі: {n} карти",
        "many": "У запасі: {n} карт",
    },
    "coach_risk": (
        "Наступний гравець ({name}) може відповісти фокстротом на одиночну карту: {items}"
    ),
    "coach_risk_item": "{rank} — {pct}%",
    # чим добрий хід
    "coach_double_foxtrot": "робить подвійний фокстрот: {total:+d}",
    "coach_foxtrot": "робить фокстрот: {total:+d}",
    "coach_takes_points": {
        "one": "забирає {n} очко",
        "few": "забирає {n} очки",
        "many": "забирає {n} очок",
    },
    "coach_takes_cards": {
        "one": "забирає {n} карту",
        "few": "забирає {n} карти",
        "many": "забирає {n} карт",
    },
    "coach_takes_loss": {
        "one": "забирає {n} карту, хоч там і {card}: {points:+d}",
        "few": "забирає {n} карти, хоч там і {card}: {points:+d}",
        "many": "забирає {n} карт, хоч там і {card}: {points:+d}",
    },
    "coach_takes_lone": (
        "забирає одиночну карту {card}: наступному гравцеві доведеться починати новий стос"
    ),
    "coach_avoids": "не бере {card} зі стосу",
    "coach_poisons": "підкладає {card} у стос: -20 тому, хто його візьме",
    "coach_lone_safe": (
        "залишає одиночну карту {card}: наступному гравцеві нічим зробити на неї фокстрот"
    ),
    "coach_lone_risk": (
        "залишає одиночну карту {card}: наступний гравець зробить на неї фокстрот"
        " з імовірністю {pct}%"
    ),
    "coach_no_lone": "не залишає одиночної карти для фокстроту",
    "coach_nothing_to_take": "стос лишається малим: у ньому нічого брати",
    "coach_lays": {
        "one": "кладе {card}: у стосі {n} карта, очки: {points:+d}",
        "few": "кладе {card}: у стосі {n} карти, очки: {points:+d}",
        "many": "кладе {card}: у стосі {n} карт, очки: {points:+d}",
    },
    "coach_only_move": "єдиний можливий хід: {reason}",
    "coach_take": "взяти стос",
    # розбір роздачі
    "coach_grade_good": "добрий хід",
    "coach_grade_inaccuracy": "неточність",
    "coach_grade_mistake": "помилка",
    "coach_review_good": "Гра {deal}, хід {move}: {played} — {grade} ({reason}).",
    "coach_review_worse": (
        "Гра {deal}, хід {move}: {played} — {grade}, {lost}; краще {best} ({reason})."
    ),
    "coach_lost": {"one": "-{n} очко", "few": "-{n} очки", "many": "-{n} очок"},
    "coach_summary": "{good}, {inaccuracies}, {mistakes}; {lost}",
    "coach_n_good": {
        "one": "{n} добрий хід",
        "few": "{n} добрі ходи",
        "many": "{n} добрих ходів",
    },
    "coach_n_inaccuracies": {
        "one": "{n} неточність",
        "few": "{n} неточності",
        "many": "{n} неточностей",
    },
    "coach_n_mistakes": {"one": "{n} помилка", "few": "{n} помилки", "many": "{n} помилок"},
    "coach_total_lost": {
        "one": "усього втрачено {n} очко",
        "few": "усього втрачено {n} очки",
        "many": "усього втрачено {n} очок",
    },
}

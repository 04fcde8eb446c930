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
    "coach_review_good": "Роздача {deal}, хід {move}: {played} — {grade} ({reason}).",
    "coach_review_worse": (
        "Роздача {deal}, хід {move}: {played} — {grade}, {lost}; краще {best} ({reason})."
    ),
    "coach_best_value": "{best}, очікувана різниця {best_value:+d} проти {value:+d}",
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
    # підказка в порівнянні з наступним за силою ходом
    "coach_alt_play": "хід {card}",
    "coach_alt_take": "взяти стос",
    "coach_hint_better": {
        "one": "{reason}; {alt} натомість — на {n} очко гірше: {alt_reason}",
        "few": "{reason}; {alt} натомість — на {n} очки гірше: {alt_reason}",
        "many": "{reason}; {alt} натомість — на {n} очок гірше: {alt_reason}",
    },
    "coach_hint_close": "{reason}; {alt} — майже так само добре: {alt_reason}",
    "coach_hint_better_same": {
        "one": "{reason}; {alt} робить те саме зараз, але згодом на {n} очко гірше",
        "few": "{reason}; {alt} робить те саме зараз, але згодом на {n} очки гірше",
        "many": "{reason}; {alt} робить те саме зараз, але згодом на {n} очок гірше",
    },
    "coach_hint_close_same": "{reason}; {alt} — майже так само добре",
    # підсумок роздачі
    "coach_points": {"one": "{n} очко", "few": "{n} очки", "many": "{n} очок"},
    "coach_others": {
        "one": "{points:+d} у суперника",
        "few": "{points:+d} у середньому в інших",
        "many": "{points:+d} у середньому в інших",
    },
    "coach_verdict_won": (
        "Роздачу {deal} виграно: {score:+d} проти {others}"
        " (різниця {margin:+d}); ваші ходи коштували {lost} очікуваної різниці."
    ),
    "coach_verdict_choices": (
        "Роздачу {deal} програно: {score:+d} проти {others}"
        " (різниця {margin:+d}); ваші ходи коштували {lost} очікуваної різниці."
    ),
    "coach_verdict_cards": (
        "Роздачу {deal} програно: {score:+d} проти {others}"
        " (різниця {margin:+d}), але ваші ходи коштували лише {lost} очікуваної різниці:"
        " роздачу вирішили карти{tempo}."
    ),
    "coach_verdict_tempo": (
        " і темп (коли стос можна взяти будь-коли, його бере той, перед ким він лежить, і хто"
        " починає стоси, майже не набирає очок: ви почали {started} з {piles})"
    ),
    "coach_verdict_costliest": (
        "Найдорожчий хід: хід {move}, {played} ({value:+d}); краще було {best} ({best_value:+d})."
    ),
    "coach_verdict_closest": (
        "Найважливіший вибір: хід {move}, {best} ({best_value:+d}), а не {second}"
        " ({second_value:+d})."
    ),
    "coach_verdict_forced": "Усі ходи були вимушені: вибирати не було з чого.",
}

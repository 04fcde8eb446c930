"""Русские сообщения игры в терминале (foxtrot play, просмотр записи)."""

MESSAGES: dict[str, str | dict[str, str]] = {
    "tui_title": "Фокстрот",
    "tui_too_small": (
        "Окно терминала слишком мало: для «Фокстрота» нужно не меньше {width} × {height}.\n"
        "Увеличьте окно."
    ),
    # настройка
    "tui_setup_title": "Фокстрот — новый матч",
    "tui_setup_players": "Игроков",
    "tui_setup_language": "Язык",
    "tui_setup_seat": "Место {n}",
    "tui_seat_human": "Человек",
    "tui_seat_bot": "Компьютер, {level}",
    "tui_setup_name_placeholder": "имя (можно не вводить)",
    "tui_setup_take": "Как забирают карты",
    "tui_take_any": "в любой свой ход (take = any)",
    "tui_take_match": "валетом или такой же (take = match)",
    "tui_explain_take_match": (
        "take = match: карты со стола забирает валет или карта достоинства верхней."
    ),
    "tui_explain_take_any": (
        "take = any: в свой ход можно забрать все карты со стола; тому, кто начинает новую "
        "стопку, почти не набрать очков, и матч часто решает первая раздача."
    ),
    "tui_setup_forced": "Фокстрот обязателен",
    "tui_yes": "да",
    "tui_no": "нет",
    "tui_explain_forced_no": "Можно сыграть другую карту, даже если можно сделать фокстрот.",
    "tui_explain_forced_yes": "Если можно сделать фокстрот, его нужно сделать.",
    "tui_setup_leftover": "Карты на столе в конце",
    "tui_leftover_discard": "не идут никому",
    "tui_leftover_last_taker": "тому, кто брал последним",
    "tui_explain_leftover_discard": "Карты, оставшиеся на столе в конце раздачи, не идут никому.",
    "tui_explain_leftover_last_taker": (
        "Карты, оставшиеся на столе в конце раздачи, получает тот, кто брал последним."
    ),
    "tui_setup_tie": "Больше всех карт, ничья",
    "tui_tie_none": "никто не получает",
    "tui_tie_all": "получают все",
    "tui_explain_tie_none": (
        "Если больше всех карт у нескольких игроков поровну, 5 очков не получает никто."
    ),
    "tui_explain_tie_all": (
        "Если больше всех карт у нескольких игроков поровну, каждый из них получает 5 очков."
    ),
    "tui_setup_target": "Матч до",
    "tui_target_custom": "другое…",
    "tui_target_placeholder": "очков",
    "tui_explain_target": (
        "Матч кончается после той раздачи, в которой кто-то набрал столько очков."
    ),
    "tui_setup_dealer": "Первого сдающего определит жребий в начале матча.",
    "tui_setup_start": "Начать",
    "tui_setup_quit": "Выйти",
    "tui_setup_bad_target": "Матч идёт до целого положительного числа очков.",
    "tui_setup_no_human": "Хотя бы на одном месте должен играть человек.",
    "tui_keys_setup": (
        "Tab — следующее поле · Enter — открыть список, выбрать · F2 — начать · Esc — выйти"
    ),
    "tui_lang_en": "English",
    "tui_lang_ru": "Русский",
    "tui_lang_uk": "Українська",
    "tui_level_easy": "лёгкий",
    "tui_level_medium": "средний",
    "tui_level_hard": "сильный",
    "tui_level_random": "случайный",
    "tui_level_greedy": "жадный",
    "tui_level_expert": "эксперт",
    "tui_default_player": "Игрок {n}",
    "tui_default_bot": "Компьютер ({level})",
    "tui_default_bot_n": "Компьютер {n} ({level})",
    # стол
    "tui_deal": "Раздача {deal}",
    "tui_deal_short": "Р{deal}",
    "tui_dealer": "сдаёт: {name}",
    "tui_turn": "ходит: {name}",
    "tui_stock": {
        "one": "в запасе {n} карта",
        "few": "в запасе {n} карты",
        "many": "в запасе {n} карт",
    },
    "tui_target": "матч до {target}",
    "tui_col_player": "Игрок",
    "tui_col_hand": "На руке",
    "tui_col_taken": "Взято",
    "tui_col_foxtrots": "Фокстроты",
    "tui_col_total": "Матч",
    "tui_dealer_mark": "сдаёт",
    "tui_you_mark": "вы",
    "tui_marks": "({marks})",
    "tui_pile": {
        "one": "На столе {n} карта",
        "few": "На столе {n} карты",
        "many": "На столе {n} карт",
    },
    "tui_pile_empty": "пусто",
    "tui_top": "сверху",
    "tui_hand_hidden": "Карты на руке скрыты.",
    "tui_your_hand": "{name}, ваши карты ({cards}):",
    "tui_your_hand_turn": "{name}, ваш ход — ваши карты ({cards}):",
    "tui_key_play": "сыграть",
    "tui_key_select": "выбрать",
    "tui_key_take": "забрать",
    "tui_key_undo": "отменить",
    "tui_key_hint": "подсказка",
    "tui_key_count": "счёт карт",
    "tui_key_rules": "правила",
    "tui_key_scores": "очки",
    "tui_key_quit": "выйти",
    "tui_wrong_key": "Клавиша {pressed} здесь ничего не делает: клавиши перечислены ниже.",
    "tui_last_move": "Последний ход: {text}",
    "tui_cover_soon": "Ход сделан. Нажмите любую клавишу, чтобы скрыть стол для игрока {name}.",
    "tui_undone": "Ваш последний ход и ответы компьютера отменены.",
    "tui_undo_log": "{name} отменяет ход.",
    "tui_undo_none": "В этой раздаче нет вашего хода, который можно отменить.",
    "tui_undo_revealed": "Отменить поздно: после вашего хода из запаса сдавались карты.",
    "tui_undo_hot_seat": "Ходы отменяются только в матче против компьютера.",
    "tui_not_your_turn": "Подождите: сейчас не ваш ход.",
    "tui_no_such_card": "На этой клавише нет карты.",
    "tui_illegal": "Так сейчас ходить нельзя.",
    "tui_illegal_not_your_turn": "Подождите: сейчас не ваш ход.",
    "tui_illegal_not_in_hand": "Этой карты у вас нет.",
    "tui_illegal_take_not_allowed": (
        "За этим столом карты забирают только валетом или картой того же достоинства, что верхняя."
    ),
    "tui_illegal_empty_pile": "На столе пусто: забирать нечего.",
    "tui_illegal_must_foxtrot": (
        "Вы можете сделать фокстрот ({cards}), а за этим столом это обязательно."
    ),
    "tui_illegal_match_over": "Матч окончен.",
    "tui_illegal_no_deal": "Следующая раздача ещё не сдана.",
    "tui_lot": "Жребий: {draws}. Первым сдаёт {name}.",
    "tui_lot_draw": "{name} {card}",
    "tui_resumed": "Матч продолжается из файла {path}.",
    "tui_bot_failed_error": (
        "{name}: ошибка в программе, ход не выбран — на этот раз сыгран случайный ход. Матч "
        "сохранён в файле {path}."
    ),
    "tui_bot_failed_illegal": (
        "{name}: выбран недопустимый ход — на этот раз вместо него сыгран случайный ход. Матч "
        "сохранён в файле {path}."
    ),
    # заслон
    "tui_cover": "Передайте ход: {name} — нажмите Enter",
    "tui_cover_note": "Стол скрыт, чтобы никто не увидел чужих карт.",
    # окна
    "tui_keys_close": "Enter или Esc — закрыть",
    "tui_thinking": "Думаю…",
    "tui_hint_title": "Подсказка",
    "tui_hint_play": "Сыграйте {card} (клавиша {shortcut}).",
    "tui_hint_take": "Заберите карты со стола (клавиша t).",
    "tui_keys_hint": "Enter — сыграть так · Esc — закрыть",
    "tui_counting_title": "Счёт карт",
    "tui_coach_failed": "Тренер не смог ответить: {error}",
    "tui_rules_title": "Правила",
    "tui_keys_rules": "↑↓ PgUp PgDn — листать · Esc — закрыть",
    "tui_scores_title": "Очки за каждую раздачу",
    "tui_no_scores_yet": "Ни одна раздача ещё не закончилась.",
    # итоги
    "tui_score_title": "Раздача {deal} окончена — подсчёт очков",
    "tui_col_foxtrots_n": "Фокстр.",
    "tui_col_doubles_n": "Двойн.",
    "tui_col_cards": "Карт",
    "tui_col_p2": "За\nкарты",
    "tui_col_p3": "Больше\nвсех",
    "tui_col_p4": "Раздача",
    "tui_score_note": (
        "Раздача = 10 за фокстрот и 20 за двойной + очки за карты (10 за десятку, 1 за туза и "
        "валета, −20 за Д♠) + 5 тому, кто взял больше всех карт. Матч идёт до {target}."
    ),
    "tui_winner": "{name} выигрывает матч: {points}.",
    "tui_keys_next_deal": "Enter — сдать следующую раздачу",
    "tui_keys_continue": "Enter — дальше",
    "tui_match_over": "Матч окончен",
    "tui_total_line": "{name}: {points}",
    "tui_saved_at": "Запись матча сохранена в {path}.",
    "tui_review_offer": "Разбор ходов игрока {name}: компьютер проверит каждый ход.",
    "tui_keys_match_end": "v — разбор · Tab — другой игрок · n — новый матч · q — выйти",
    "tui_review_title": "Разбор ходов: {name}",
    "tui_reviewing": "Компьютер проверяет каждый ход… это может занять минуту.",
    "tui_review_empty": "Разбирать было нечего.",
    # выход и продолжение
    "tui_saved": "Матч сохранён в {path}. Продолжить: foxtrot play --resume {path}",
    "tui_no_autosave": "Нет сохранённого матча, который можно продолжить.",
    "tui_resume_over": "Матч в {path} окончен; посмотреть его: foxtrot replay {path}",
    "tui_record_error": "Сохранённый матч в {path} не прочитать: {reason}",
    "tui_not_kept": "Ни одного хода не сделано, поэтому матч не сохранён.",
    "tui_resume_title": "Продолжить сохранённый матч",
    "tui_resume_item": "{names} · {date} · раздача {deal} · {score}",
    "tui_keys_resume": "↑↓ — выбрать · Enter — продолжить · Esc — выйти",
    # просмотр записи
    "tui_replay_header": "Раздача {deal} из {deals}, шаг {step} из {steps}",
    "tui_key_next": "вперёд",
    "tui_key_previous": "назад",
    "tui_key_deal": "следующая/предыдущая раздача",
    "tui_key_ends": "в начало/в конец",
    "tui_key_jump": "перейти к раздаче",
    "tui_key_hands": "показать все карты",
    "tui_key_close_viewer": "выйти",
    "tui_jump_title": "Перейти к раздаче (от 1 до {deals})",
    "tui_jump_placeholder": "номер раздачи, от 1 до {deals}",
    "tui_jump_bad": "Введите число от 1 до {deals}.",
    "tui_keys_jump": "Enter — перейти · Esc — отмена",
}

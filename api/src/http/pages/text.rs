//! Every piece of text the pages show, in English, Dutch and French. One place, so a
//! missing translation is a compile error (`Text::new` takes all three) rather than a
//! page in two languages; the tests below check that the three say the same things
//! (the same placeholders, the same keys in the texts that are JSON).

use super::lang::Text;

pub const SITE: Text = Text::new(
    "Yaniv championships",
    "Yaniv-kampioenschappen",
    "Championnats de Yaniv",
);
pub const SKIP: Text = Text::new("Skip to the content", "Naar de inhoud", "Aller au contenu");
pub const HOME: Text = Text::new("Home", "Start", "Accueil");
pub const LANGUAGE: Text = Text::new("Language", "Taal", "Langue");
pub const TOURNAMENTS: Text = Text::new("Tournaments", "Toernooien", "Tournois");
pub const NO_TOURNAMENTS: Text = Text::new(
    "No tournament has been created yet.",
    "Er is nog geen toernooi aangemaakt.",
    "Aucun tournoi n'a encore été créé.",
);
pub const API_DOCS: Text = Text::new(
    "The REST API and its documentation",
    "De REST-API en haar documentatie",
    "L'API REST et sa documentation",
);
pub const LANDING_INTRO: Text = Text::new(
    "Follow a championship: the seating of the current round, the standings, the knockout and the final ranking, updated live.",
    "Volg een kampioenschap: de tafelindeling van de huidige ronde, het klassement, de knock-outfase en de eindrangschikking, live bijgewerkt.",
    "Suivez un championnat : le placement de la ronde en cours, le classement, l'élimination directe et le classement final, mis à jour en direct.",
);
pub const NOT_FOUND: Text = Text::new("Not found", "Niet gevonden", "Introuvable");
pub const NO_SUCH_TOURNAMENT: Text = Text::new(
    "There is no such tournament.",
    "Dit toernooi bestaat niet.",
    "Ce tournoi n'existe pas.",
);
pub const UNAVAILABLE: Text = Text::new(
    "The server cannot show this page right now. Try again in a moment.",
    "De server kan deze pagina nu niet tonen. Probeer het zo meteen opnieuw.",
    "Le serveur ne peut pas afficher cette page pour le moment. Réessayez dans un instant.",
);

// The tournament's own pages.
pub const OVERVIEW: Text = Text::new("Overview", "Overzicht", "Aperçu");
pub const SEATING: Text = Text::new("Seating", "Tafelindeling", "Placement");
pub const STANDINGS: Text = Text::new("Standings", "Klassement", "Classement");
pub const STAGES: Text = Text::new("Stages", "Fasen", "Phases");
pub const RANKING: Text = Text::new("Final ranking", "Eindrangschikking", "Classement final");
pub const PROJECTOR: Text = Text::new("Projector", "Projectie", "Projection");
pub const LIVE: Text = Text::new(
    "This page follows the tournament live.",
    "Deze pagina volgt het toernooi live.",
    "Cette page suit le tournoi en direct.",
);
pub const PHASE: Text = Text::new("Phase", "Fase", "État");
pub const RULES: Text = Text::new("Rules", "Regels", "Règles");
pub const PLAYERS: Text = Text::new("Players", "Spelers", "Joueurs");
pub const ORGANIZER: Text = Text::new("Organizer", "Organisator", "Organisateur");
pub const REGISTERED: Text = Text::new("Registered", "Ingeschreven", "Inscrits");
pub const ROUND: Text = Text::new("Round", "Ronde", "Ronde");
pub const STAGE: Text = Text::new("Stage", "Fase", "Phase");
pub const TABLE: Text = Text::new("Table", "Tafel", "Table");
pub const QUALIFICATION: Text = Text::new("Qualification", "Kwalificatie", "Qualification");
pub const KNOCKOUT: Text = Text::new("Knockout", "Knock-out", "Élimination directe");
pub const FINAL_TABLE: Text = Text::new("Final table", "Finaletafel", "Table finale");
pub const ONLINE: Text = Text::new("online", "online", "en ligne");
pub const PAPER: Text = Text::new("on paper", "op papier", "sur papier");
pub const PLAYING: Text = Text::new("playing", "bezig", "en cours");
pub const WAITING: Text = Text::new("not started", "nog niet begonnen", "pas commencée");
pub const WON_BY: Text = Text::new("won by", "gewonnen door", "gagnée par");
pub const DONE: Text = Text::new("result in", "uitslag binnen", "résultat enregistré");
pub const ABSENT: Text = Text::new("did not come", "niet gekomen", "pas venu");
pub const ADVANCES: Text = Text::new("goes through", "gaat door", "qualifié");
pub const BYES: Text = Text::new("Byes", "Vrij", "Exemptés");
pub const SEEDED_BY_RATING: Text = Text::new(
    "Seeded by the rating list as it stood at",
    "Geplaatst volgens de ratinglijst zoals die stond op",
    "Têtes de série selon le classement tel qu'il était le",
);
pub const SEEDING_ORDER: Text = Text::new(
    "Seeding order",
    "Plaatsingsvolgorde",
    "Ordre des têtes de série",
);
pub const REDRAWN: Text = Text::new("Redrawn", "Opnieuw geloot", "Nouveau tirage");
pub const REDRAWN_BY: Text = Text::new("by", "door", "par");
pub const SEATING_REPLACED: Text = Text::new(
    "Seating it replaced",
    "Vervangen tafelindeling",
    "Placement remplacé",
);
pub const NO_ROUND_YET: Text = Text::new(
    "No round has been drawn yet.",
    "Er is nog geen ronde geloot.",
    "Aucune ronde n'a encore été tirée au sort.",
);
pub const FIND_TABLE: Text = Text::new("Find my table", "Zoek mijn tafel", "Trouver ma table");
pub const YOUR_NAME: Text = Text::new("Your name", "Je naam", "Votre nom");
pub const FIND: Text = Text::new("Find", "Zoek", "Chercher");
pub const NOBODY_FOUND: Text = Text::new(
    "Nobody at this round's tables has that name.",
    "Niemand aan de tafels van deze ronde heeft die naam.",
    "Personne aux tables de cette ronde ne porte ce nom.",
);
pub const SHOW_ALL: Text = Text::new(
    "Show every table",
    "Toon alle tafels",
    "Afficher toutes les tables",
);
pub const NO_STANDINGS: Text = Text::new(
    "The standings begin with the qualification.",
    "Het klassement begint met de kwalificatie.",
    "Le classement commence avec la qualification.",
);
pub const PLACE: Text = Text::new("Place", "Plaats", "Rang");
pub const PLACE_LOWER: Text = Text::new("place", "plaats", "rang");
pub const POINTS: Text = Text::new("points", "punten", "points");
pub const PLAYER: Text = Text::new("Player", "Speler", "Joueur");
pub const GAMES: Text = Text::new("Games", "Spellen", "Parties");
pub const ABSENCES: Text = Text::new("Missed", "Gemist", "Absences");
pub const WINS: Text = Text::new("Wins", "Gewonnen", "Victoires");
pub const TABLE_POINTS: Text = Text::new("Table points", "Tafelpunten", "Points de table");
pub const SCORE_DIFFERENCE: Text =
    Text::new("Score difference", "Puntenverschil", "Différence de points");
pub const ROUND_OF: Text = Text::new(
    "Round {round} of {of}",
    "Ronde {round} van {of}",
    "Ronde {round} sur {of}",
);
pub const SCORE_DIFFERENCE_HELP: Text = Text::new(
    "Score difference: a player's final total in each game minus the mean total of their table, summed over the games. Below zero is better than the table's average; the lower, the better.",
    "Puntenverschil: de eindscore van een speler in elk spel min het gemiddelde van zijn tafel, opgeteld over de spellen. Onder nul is beter dan het tafelgemiddelde; hoe lager, hoe beter.",
    "Différence de points : le total final d'un joueur dans chaque partie moins la moyenne de sa table, additionné sur les parties. Sous zéro, c'est mieux que la moyenne de la table ; plus c'est bas, mieux c'est.",
);
pub const REGISTRATION_ORDER: Text = Text::new("Registration", "Inschrijving", "Inscription");
pub const WITHDRAWN: Text = Text::new("withdrawn", "teruggetrokken", "retiré");
pub const DOWNLOAD_CSV: Text =
    Text::new("Download as CSV", "Download als CSV", "Télécharger en CSV");
pub const NO_RANKING: Text = Text::new(
    "The final ranking comes once the final table has its result.",
    "De eindrangschikking volgt zodra de finaletafel een uitslag heeft.",
    "Le classement final sera disponible dès que la table finale aura son résultat.",
);
pub const PROVISIONAL: Text = Text::new(
    "Provisional: the organizer has not published it yet.",
    "Voorlopig: de organisator heeft ze nog niet gepubliceerd.",
    "Provisoire : l'organisateur ne l'a pas encore publié.",
);
pub const REACHED: Text = Text::new("Reached", "Bereikt", "Atteint");
pub const DISQUALIFIED: Text = Text::new("Disqualified", "Gediskwalificeerd", "Disqualifié");
pub const NO_STAGES: Text = Text::new(
    "The stages begin when the qualification starts.",
    "De fasen beginnen bij de start van de kwalificatie.",
    "Les phases commencent au début de la qualification.",
);

// The printables (`print/`). Texts with `{a}` and `{b}` take numbers from the rules
// (`print::fill`).
pub const PRINT: Text = Text::new("Print", "Afdrukken", "Imprimer");
pub const SCORE_SHEETS: Text = Text::new("Score sheets", "Scorebladen", "Feuilles de marque");
pub const TABLE_CARDS: Text = Text::new("Table cards", "Tafelkaarten", "Affichettes de table");
pub const PRINT_STANDINGS: Text = Text::new(
    "Standings for print",
    "Klassement om af te drukken",
    "Classement à imprimer",
);
pub const PRINT_HINT: Text = Text::new(
    "Made for A4 paper, in black and white: print this page from the browser.",
    "Gemaakt voor A4-papier, in zwart-wit: druk deze pagina af vanuit de browser.",
    "Conçu pour du papier A4, en noir et blanc : imprimez cette page depuis le navigateur.",
);
pub const NO_PAPER_TABLES: Text = Text::new(
    "No table of this round is played on paper.",
    "Geen enkele tafel van deze ronde wordt op papier gespeeld.",
    "Aucune table de cette ronde ne se joue sur papier.",
);
pub const NO_SUCH_ROUND: Text = Text::new(
    "This tournament has no such round.",
    "Dit toernooi heeft zo'n ronde niet.",
    "Ce tournoi n'a pas cette ronde.",
);
pub const BAD_ROUND_QUERY: Text = Text::new(
    "Stage and round are whole numbers, from 1.",
    "Fase en ronde zijn gehele getallen, vanaf 1.",
    "La phase et la ronde sont des nombres entiers, à partir de 1.",
);
pub const SEAT: Text = Text::new("Seat", "Stoel", "Place");
pub const FINAL_TOTAL: Text = Text::new("Final total", "Eindtotaal", "Total final");
pub const SIGNATURES: Text = Text::new("Signatures", "Handtekeningen", "Signatures");
pub const SHEET_HINT: Text = Text::new(
    "On each row: the seat number of who called (followed by E when a hand was emptied instead), every player's hand as shown, the box ticked for each player who went along, and each total after the round, reductions applied. The desk types the rows in as they are. Every player signs for the final totals.",
    "Op elke rij: het plaatsnummer van wie riep (gevolgd door E wanneer in plaats daarvan een hand leeg werd gespeeld), de getoonde hand van elke speler, het vakje aangekruist voor wie meeging, en elk totaal na de ronde, verlagingen inbegrepen. De organisatie neemt de rijen zo over. Elke speler tekent voor de eindtotalen.",
    "Sur chaque ligne : le numéro de place de qui a annoncé (suivi de E quand une main a été vidée à la place), la main montrée par chaque joueur, la case cochée pour chaque joueur qui a suivi, et chaque total après la manche, réductions comprises. L'accueil saisit les lignes telles quelles. Chaque joueur signe pour les totaux finaux.",
);
pub const REMINDERS: Text = Text::new(
    "Rules to remember",
    "Regels om te onthouden",
    "Règles à retenir",
);
pub const VERSION: Text = Text::new("Version", "Versie", "Version");
pub const PRINTED_AT: Text = Text::new("Printed", "Afgedrukt", "Imprimé le");
pub const REDUCTION_EXACT: Text = Text::new(
    "A total of exactly {a} drops to {b}.",
    "Een totaal van precies {a} zakt naar {b}.",
    "Un total d'exactement {a} descend à {b}.",
);
pub const REDUCTION_MULTIPLE: Text = Text::new(
    "A total that is a multiple of {a} loses {b}.",
    "Een totaal dat een veelvoud van {a} is, verliest {b}.",
    "Un total multiple de {a} perd {b}.",
);
pub const REDUCTION_ONCE: Text = Text::new(
    "At most one reduction per round, and only for a player who scored points in it.",
    "Hoogstens één verlaging per ronde, en enkel voor wie in die ronde punten kreeg.",
    "Au plus une réduction par manche, et seulement pour un joueur qui y a marqué des points.",
);
pub const NO_REDUCTIONS: Text = Text::new(
    "Totals are never reduced.",
    "Totalen worden nooit verlaagd.",
    "Les totaux ne sont jamais réduits.",
);
pub const END_LOWEST_ABOVE: Text = Text::new(
    "The game ends after the round in which a player goes above {a}; the lowest total wins.",
    "Het spel eindigt na de ronde waarin een speler boven {a} komt; het laagste totaal wint.",
    "La partie se termine après la manche où un joueur dépasse {a} ; le total le plus bas gagne.",
);
pub const END_LOWEST_AT: Text = Text::new(
    "The game ends after the round in which a player reaches {a}; the lowest total wins.",
    "Het spel eindigt na de ronde waarin een speler {a} bereikt; het laagste totaal wint.",
    "La partie se termine après la manche où un joueur atteint {a} ; le total le plus bas gagne.",
);
pub const END_ELIMINATION_ABOVE: Text = Text::new(
    "A player above {a} is out; the last player left wins.",
    "Een speler boven {a} valt af; wie als laatste overblijft, wint.",
    "Un joueur qui dépasse {a} est éliminé ; le dernier joueur restant gagne.",
);
pub const END_ELIMINATION_AT: Text = Text::new(
    "A player who reaches {a} is out; the last player left wins.",
    "Een speler die {a} bereikt, valt af; wie als laatste overblijft, wint.",
    "Un joueur qui atteint {a} est éliminé ; le dernier joueur restant gagne.",
);
pub const CALL_THRESHOLD: Text = Text::new(
    "A call is allowed with {a} points or fewer in hand.",
    "Roepen mag met {a} punten of minder in de hand.",
    "On peut annoncer Yaniv avec {a} points ou moins en main.",
);
pub const CALL_ANY_TOTAL: Text = Text::new(
    "A call is allowed at any total.",
    "Roepen mag bij elk totaal.",
    "On peut annoncer Yaniv quel que soit le total.",
);
pub const OVER_THRESHOLD_REFUSED: Text = Text::new(
    "No call above {a}.",
    "Boven {a} roepen mag niet.",
    "Pas d'annonce au-dessus de {a}.",
);
pub const OVER_THRESHOLD_HAND_PLUS: Text = Text::new(
    "A call above {a}: the caller scores their hand + {b}.",
    "Wie boven {a} roept, krijgt de eigen hand + {b}.",
    "Annonce au-dessus de {a} : l'annonceur marque sa main + {b}.",
);
pub const OVER_THRESHOLD_LEFT_HAND: Text = Text::new(
    "A call above {a}: the caller scores {b} + the hand of the player on their left.",
    "Wie boven {a} roept, krijgt {b} + de hand van de speler links.",
    "Annonce au-dessus de {a} : l'annonceur marque {b} + la main du joueur à sa gauche.",
);
pub const GO_ALONG: Text = Text::new(
    "Going along with as little as the caller or less: 0 points, and {a} for the caller; going along with more: {a}.",
    "Meegaan met evenveel als de roeper of minder: 0 punten, en {a} voor de roeper; meegaan met meer: {a}.",
    "Suivre avec autant que l'annonceur ou moins : 0 point, et {a} pour l'annonceur ; suivre avec plus : {a}.",
);
pub const KLUFT: Text = Text::new(
    "A losing caller or challenger scores their hand + {a}.",
    "Een verliezende roeper of uitdager krijgt de eigen hand + {a}.",
    "Un annonceur ou un contestataire perdant marque sa main + {a}.",
);
pub const BEATEN_CALLER: Text = Text::new(
    "A beaten caller scores their hand + {a}.",
    "Een geklopte roeper krijgt de eigen hand + {a}.",
    "Un annonceur battu marque sa main + {a}.",
);
pub const BEATEN_CALLER_PER_PLAYER: Text = Text::new(
    "A beaten caller scores their hand + {a}, or + {b} per player when several beat them.",
    "Een geklopte roeper krijgt de eigen hand + {a}, of + {b} per speler als meerderen hem kloppen.",
    "Un annonceur battu marque sa main + {a}, ou + {b} par joueur quand plusieurs le battent.",
);
pub const BEATEN_CALLER_FURTHER: Text = Text::new(
    "A beaten caller scores their hand + {a}, and + {b} for every further player at or below them.",
    "Een geklopte roeper krijgt de eigen hand + {a}, en + {b} voor elke volgende speler met evenveel of minder.",
    "Un annonceur battu marque sa main + {a}, et + {b} pour chaque autre joueur à égalité ou en dessous de lui.",
);

/// A rule preset, by its API name, as people call that way of playing.
/// A bot's seat name in words: its stored name (`greedy#2`) is for programs.
pub const BOT_NAME: Text = Text::new("Bot {n} ({kind})", "Bot {n} ({kind})", "Robot {n} ({kind})");

/// How a kind of bot plays.
pub fn bot_kind(kind: &str) -> Text {
    match kind {
        "greedy" => Text::new("greedy", "gretig", "glouton"),
        "random" => Text::new("random", "willekeurig", "au hasard"),
        _ => Text::new("bot", "bot", "robot"),
    }
}

pub fn preset(name: &str) -> Text {
    match name {
        "israeli" => Text::new("Israeli", "Israëlisch", "Israélien"),
        "nepali" => Text::new("Nepali", "Nepalees", "Népalais"),
        "kluft" => Text::new("Kluft", "Kluft", "Kluft"),
        "belgian" => Text::new("Belgian", "Belgisch", "Belge"),
        "wikipedia" => Text::new(
            "Wikipedia's rules",
            "Regels van Wikipedia",
            "Règles de Wikipédia",
        ),
        "house" => Text::new(
            "House Rules, with bonus rules",
            "House Rules, met bonusregels",
            "House Rules, avec règles bonus",
        ),
        _ => Text::new("custom rules", "eigen regels", "règles personnalisées"),
    }
}

/// A role, by its API name.
pub fn role(name: &str) -> Text {
    match name {
        "organizer" => Text::new("Organizer", "Organisator", "Organisateur"),
        "referee" => Text::new("Referee", "Scheidsrechter", "Arbitre"),
        "admin" => Text::new("Admin", "Beheerder", "Administrateur"),
        _ => Text::new("Player", "Speler", "Joueur"),
    }
}

/// A phase of the tournament, by its API name.
pub fn phase(name: &str) -> Text {
    match name {
        "setup" => Text::new("being set up", "in voorbereiding", "en préparation"),
        "registration_open" => Text::new(
            "registration open",
            "inschrijving open",
            "inscriptions ouvertes",
        ),
        "registration_closed" => Text::new(
            "registration closed",
            "inschrijving gesloten",
            "inscriptions clôturées",
        ),
        "qualification" => Text::new("qualification", "kwalificatie", "qualification"),
        "knockout" => Text::new("knockout", "knock-out", "élimination directe"),
        _ => Text::new("finished", "afgelopen", "terminé"),
    }
}

// The organizer's desk.
pub const DESK: Text = Text::new(
    "Organizer's desk",
    "Organisatietafel",
    "Bureau de l'organisateur",
);
pub const LOG_IN: Text = Text::new("Log in", "Aanmelden", "Se connecter");
pub const DOOR_LIST: Text = Text::new(
    "Register players from a list (CSV)",
    "Spelers inschrijven uit een lijst (CSV)",
    "Inscrire des joueurs depuis une liste (CSV)",
);
pub const DOOR_LIST_HELP: Text = Text::new(
    "A header row naming username, and check_in (yes or no) if you like. The whole list is registered or none of it. A player without an account gets one, with a set-up code to choose a password.",
    "Een kopregel met username, en naar wens check_in (yes of no). De hele lijst wordt ingeschreven of niets ervan. Wie nog geen account heeft, krijgt er een, met een activeringscode om een wachtwoord te kiezen.",
    "Une ligne d'en-tête avec username, et si vous le souhaitez check_in (yes ou no). Toute la liste est inscrite, ou rien. Un joueur sans compte en reçoit un, avec un code d'activation pour choisir son mot de passe.",
);
pub const DOOR_LIST_FILE: Text = Text::new(
    "The list's file",
    "Het bestand van de lijst",
    "Le fichier de la liste",
);
pub const DOOR_LIST_TEXT: Text = Text::new(
    "Or the list itself",
    "Of de lijst zelf",
    "Ou la liste elle-même",
);
pub const DOOR_LIST_SEND: Text = Text::new(
    "Register the list",
    "De lijst inschrijven",
    "Inscrire la liste",
);
pub const SLIPS_TITLE: Text = Text::new(
    "Players' slips",
    "Briefjes voor de spelers",
    "Fiches des joueurs",
);
pub const SLIPS_ONCE: Text = Text::new(
    "The set-up codes are shown this once: print the slips now and hand each player theirs.",
    "De activeringscodes worden maar één keer getoond: druk de briefjes nu af en geef elke speler het zijne.",
    "Les codes d'activation ne sont affichés qu'une fois : imprimez les fiches maintenant et remettez à chaque joueur la sienne.",
);
pub const SLIP_WHERE: Text = Text::new(
    "Choose your password, then find your table, at",
    "Kies je wachtwoord en vind daarna je tafel op",
    "Choisissez votre mot de passe, puis trouvez votre table, sur",
);
pub const PRINT_SLIPS: Text = Text::new(
    "Print the slips",
    "De briefjes afdrukken",
    "Imprimer les fiches",
);
pub const REGISTRATION_OUTCOMES: Text = Text::new(
    r#"{"registered":"registered","entered_late":"admitted late","already_registered":"was already in"}"#,
    r#"{"registered":"ingeschreven","entered_late":"laat toegelaten","already_registered":"was al ingeschreven"}"#,
    r#"{"registered":"inscrit","entered_late":"admis en retard","already_registered":"était déjà inscrit"}"#,
);
pub const ACCOUNTS: Text = Text::new(
    "Accounts and roles",
    "Accounts en rollen",
    "Comptes et rôles",
);
pub const ACCOUNTS_HELP: Text = Text::new(
    "An organizer creates and runs tournaments; a referee checks tables and their replays. Which tournaments they serve is set on each tournament's desk.",
    "Een organisator maakt en leidt toernooien; een scheidsrechter controleert tafels en hun herspelingen. Voor welke toernooien ze dienen, stel je in op de organisatietafel van elk toernooi.",
    "Un organisateur crée et dirige des tournois ; un arbitre contrôle les tables et leurs relectures. Les tournois qu'ils servent se règlent sur le bureau de chaque tournoi.",
);
pub const ADMINS_ONLY: Text = Text::new(
    "Only an admin may change roles: you can look, not change.",
    "Alleen een beheerder mag rollen wijzigen: je kunt kijken, niet wijzigen.",
    "Seul un administrateur peut changer les rôles : vous pouvez regarder, pas modifier.",
);
pub const NAME_STARTS: Text =
    Text::new("Name starts with", "Naam begint met", "Le nom commence par");
pub const SAVE: Text = Text::new("Save", "Opslaan", "Enregistrer");
pub const REFEREES: Text = Text::new(
    "Referees of this tournament",
    "Scheidsrechters van dit toernooi",
    "Arbitres de ce tournoi",
);
pub const NO_REFEREES: Text = Text::new(
    "No referee yet.",
    "Nog geen scheidsrechter.",
    "Pas encore d'arbitre.",
);
pub const ADD_REFEREE: Text = Text::new(
    "Add a referee (username)",
    "Een scheidsrechter toevoegen (gebruikersnaam)",
    "Ajouter un arbitre (nom d'utilisateur)",
);
pub const ADD: Text = Text::new("Add", "Toevoegen", "Ajouter");
pub const REMOVE: Text = Text::new("Remove", "Verwijderen", "Retirer");
pub const RESULTS_MISSING: Text = Text::new(
    "Results still missing",
    "Uitslagen die nog ontbreken",
    "Résultats encore manquants",
);
pub const ALL_RESULTS_IN: Text = Text::new(
    "Every table of this round has its result.",
    "Elke tafel van deze ronde heeft haar uitslag.",
    "Chaque table de cette ronde a son résultat.",
);
pub const DID_NOT_COME: Text = Text::new(
    "A player did not come",
    "Een speler is niet gekomen",
    "Un joueur n'est pas venu",
);
pub const MARK_ABSENT: Text = Text::new(
    "Mark as not come",
    "Als afwezig markeren",
    "Marquer comme absent",
);
pub const CONFIRM_NO_SHOW: Text = Text::new(
    "Mark {name} as not come? The round counts as missed for them, and an online game is dealt again for the others.",
    "{name} als niet gekomen markeren? De ronde telt voor die speler als gemist, en een online spel wordt opnieuw gedeeld voor de anderen.",
    "Marquer {name} comme absent ? La ronde compte comme manquée pour ce joueur, et une partie en ligne est redistribuée pour les autres.",
);
pub const CALLED_BY_SEAT: Text = Text::new(
    "Called by (seat)",
    "Geroepen door (plaats)",
    "Annoncé par (place)",
);
pub const QR_TABLE: Text = Text::new(
    "QR code: this table's page",
    "QR-code: de pagina van deze tafel",
    "Code QR : la page de cette table",
);
pub const QR_SLIP: Text = Text::new(
    "QR code: the link that sets your password",
    "QR-code: de link om je wachtwoord te kiezen",
    "Code QR : le lien pour choisir votre mot de passe",
);
pub const TO_PLAY: Text = Text::new("{name} to play", "{name} is aan zet", "à {name} de jouer");
pub const LAST_MOVE: Text = Text::new(
    "last move {minutes} min ago",
    "laatste zet {minutes} min geleden",
    "dernier coup il y a {minutes} min",
);
pub const SIGN_UP: Text = Text::new(
    "Create an account",
    "Een account aanmaken",
    "Créer un compte",
);
pub const SIGN_UP_HELP: Text = Text::new(
    "For a walk-in: choose a name and a password, then play online or be registered at the desk under that name.",
    "Voor wie zo binnenloopt: kies een naam en een wachtwoord, speel dan online of laat je aan de tafel inschrijven onder die naam.",
    "Pour qui arrive sans compte : choisissez un nom et un mot de passe, puis jouez en ligne ou faites-vous inscrire à l'accueil sous ce nom.",
);
pub const SET_UP: Text = Text::new(
    "Set your password",
    "Je wachtwoord kiezen",
    "Choisir votre mot de passe",
);
pub const SET_UP_HELP: Text = Text::new(
    "The organizer registered you and gave you a set-up code: with it, choose your password. The code works once.",
    "De organisator heeft je ingeschreven en je een activeringscode gegeven: kies daarmee je wachtwoord. De code werkt één keer.",
    "L'organisateur vous a inscrit et vous a remis un code d'activation : choisissez avec lui votre mot de passe. Le code ne sert qu'une fois.",
);
pub const SETUP_CODE: Text = Text::new("Set-up code", "Activeringscode", "Code d'activation");
pub const PASSWORD_HELP: Text = Text::new(
    "8 to 128 characters, not your name.",
    "8 tot 128 tekens, niet je naam.",
    "8 à 128 caractères, pas votre nom.",
);
pub const CONFIRM_PASSWORD: Text = Text::new(
    "The password again",
    "Het wachtwoord nog eens",
    "Le mot de passe à nouveau",
);
pub const PASSWORDS_DIFFER: Text = Text::new(
    "The two passwords differ.",
    "De twee wachtwoorden verschillen.",
    "Les deux mots de passe diffèrent.",
);
pub const HAVE_ACCOUNT: Text = Text::new(
    "I have an account: log in",
    "Ik heb een account: aanmelden",
    "J'ai un compte : me connecter",
);
pub const NO_ACCOUNT_YET: Text = Text::new(
    "No account yet? Create one",
    "Nog geen account? Maak er een aan",
    "Pas encore de compte ? Créez-en un",
);
pub const HAVE_CODE: Text = Text::new(
    "Got a set-up code from the organizer? Set your password",
    "Een activeringscode van de organisator gekregen? Kies je wachtwoord",
    "Un code d'activation de l'organisateur ? Choisissez votre mot de passe",
);
pub const LOG_OUT: Text = Text::new("Log out", "Afmelden", "Se déconnecter");
pub const USERNAME: Text = Text::new("Username", "Gebruikersnaam", "Nom d'utilisateur");
pub const PASSWORD: Text = Text::new("Password", "Wachtwoord", "Mot de passe");
pub const NEEDS_SCRIPT: Text = Text::new(
    "The desk changes the tournament through the REST API from your browser: it needs JavaScript.",
    "De organisatietafel wijzigt het toernooi via de REST-API vanuit je browser: daarvoor is JavaScript nodig.",
    "Le bureau modifie le tournoi via l'API REST depuis votre navigateur : il a besoin de JavaScript.",
);
pub const LOGGED_IN_AS: Text = Text::new("Logged in as", "Aangemeld als", "Connecté en tant que");
pub const DESK_INTRO: Text = Text::new(
    "Choose a tournament to run. Officials (the organizer and the referees) act from its desk page.",
    "Kies een toernooi. Officials (de organisator en de scheidsrechters) werken vanaf de pagina van het toernooi.",
    "Choisissez un tournoi à gérer. Les officiels (l'organisateur et les arbitres) agissent depuis sa page de bureau.",
);
pub const CHECK_IN: Text = Text::new("Check in", "Aanmelden aan de deur", "Pointer");
pub const UNDO_CHECK_IN: Text = Text::new(
    "Undo check-in",
    "Aanmelding ongedaan maken",
    "Annuler le pointage",
);
pub const CHECKED_IN: Text = Text::new("checked in", "aanwezig", "pointé");
pub const NOT_CHECKED_IN: Text = Text::new("not checked in", "nog niet aanwezig", "non pointé");
pub const DROPPED: Text = Text::new(
    "dropped: did not check in",
    "afgevallen: niet aangemeld",
    "écarté(e) : non pointé(e)",
);
pub const WITHDRAW: Text = Text::new("Withdraw", "Terugtrekken", "Retirer");
pub const REGISTRATION: Text = Text::new("Registration", "Inschrijving", "Inscriptions");
pub const REGISTER_PLAYER: Text = Text::new(
    "Register a player",
    "Een speler inschrijven",
    "Inscrire un joueur",
);
pub const REGISTER: Text = Text::new("Register", "Inschrijven", "Inscrire");
pub const SEARCH_PLAYERS: Text = Text::new(
    "Search the list",
    "Zoek in de lijst",
    "Chercher dans la liste",
);
pub const OPEN_REGISTRATION: Text = Text::new(
    "Open registration",
    "Inschrijving openen",
    "Ouvrir les inscriptions",
);
pub const CLOSE_REGISTRATION: Text = Text::new(
    "Close registration",
    "Inschrijving sluiten",
    "Clôturer les inscriptions",
);
pub const START_QUALIFICATION: Text = Text::new(
    "Start the qualification",
    "Kwalificatie starten",
    "Lancer la qualification",
);
pub const DRAW: Text = Text::new(
    "Draw the next round",
    "Volgende ronde loten",
    "Tirer au sort la ronde suivante",
);
pub const PAPER_TABLES: Text = Text::new(
    "Tables played on paper (numbers, comma-separated; empty: every table online)",
    "Tafels op papier (nummers, gescheiden door komma's; leeg: alle tafels online)",
    "Tables jouées sur papier (numéros séparés par des virgules ; vide : toutes les tables en ligne)",
);
pub const ADVANCE: Text = Text::new(
    "Advance to the next stage",
    "Naar de volgende fase",
    "Passer à la phase suivante",
);
pub const FINISH: Text = Text::new(
    "Finish and publish the ranking",
    "Afsluiten en rangschikking publiceren",
    "Terminer et publier le classement",
);
pub const ACTIONS: Text = Text::new(
    "Run the tournament",
    "Het toernooi leiden",
    "Gérer le tournoi",
);
pub const NO_ACCOUNT_NAMED: Text = Text::new(
    "No account is named {name}.",
    "Geen account met de naam {name}.",
    "Aucun compte ne s'appelle {name}.",
);
pub const DONE_OK: Text = Text::new("Done.", "Gedaan.", "Fait.");
pub const PUBLIC_PAGES: Text = Text::new("Public pages", "Publieke pagina's", "Pages publiques");
pub const STATE: Text = Text::new("State", "Status", "Statut");
pub const CONFIRM_WITHDRAW: Text = Text::new(
    "Withdraw for good (never seated again)",
    "Definitief terugtrekken (nooit meer aan tafel)",
    "Retirer définitivement (plus jamais placé à une table) le joueur",
);
pub const CONFIRM_FINISH: Text = Text::new(
    "Finish the tournament and publish the final ranking? Nothing can change after it.",
    "Het toernooi afsluiten en de eindrangschikking publiceren? Daarna kan niets meer veranderen.",
    "Terminer le tournoi et publier le classement final ? Plus rien ne pourra changer ensuite.",
);
pub const CONFIRM_START: Text = Text::new(
    "Start the qualification? Registration closes for good and the players not checked in are dropped: {names}.",
    "De kwalificatie starten? De inschrijving sluit definitief en wie niet aangemeld is, valt af: {names}.",
    "Commencer la qualification ? Les inscriptions se ferment définitivement et les joueurs non pointés sont écartés : {names}.",
);
pub const CONFIRM_START_ALL_IN: Text = Text::new(
    "Start the qualification? Registration closes for good; every player is checked in.",
    "De kwalificatie starten? De inschrijving sluit definitief; iedereen is aangemeld.",
    "Commencer la qualification ? Les inscriptions se ferment définitivement ; tous les joueurs sont pointés.",
);
pub const CONFIRM_DRAW: Text = Text::new(
    "Draw the next round? Its online tables are dealt at once, so that round can no longer be drawn again.",
    "De volgende ronde loten? De online tafels worden meteen gedeeld, zodat die ronde niet meer opnieuw geloot kan worden.",
    "Tirer la ronde suivante ? Ses tables en ligne sont distribuées aussitôt : cette ronde ne pourra plus être tirée à nouveau.",
);
pub const CONFIRM_ADVANCE: Text = Text::new(
    "Close this stage and start the next one? The stage's results decide who goes through.",
    "Deze fase afsluiten en de volgende starten? De uitslagen van de fase bepalen wie doorgaat.",
    "Clore cette phase et commencer la suivante ? Les résultats de la phase décident qui est qualifié.",
);
pub const PLAY_OR_WATCH: Text = Text::new("Open the game", "Het spel openen", "Ouvrir la partie");
pub const EARLIER_ROUNDS: Text =
    Text::new("Earlier rounds", "Eerdere rondes", "Rondes précédentes");
pub const TABLES_OF_ROUND: Text =
    Text::new("Tables of round", "Tafels van ronde", "Tables de la ronde");
pub const ENTER_SHEET: Text = Text::new(
    "Enter the score sheet",
    "Scoreblad invoeren",
    "Saisir la feuille de marque",
);
pub const CORRECT_SHEET: Text = Text::new(
    "Correct the result",
    "Uitslag corrigeren",
    "Corriger le résultat",
);
pub const SHEET: Text = Text::new("Score sheet", "Scoreblad", "Feuille de marque");
pub const SHEET_HELP: Text = Text::new(
    "One line per round: who called (or whose hand emptied), and every hand shown. The rules score each line as you go; a line they refuse says why.",
    "Eén regel per ronde: wie Yaniv riep (of wiens hand leeg raakte), en elke getoonde hand. De regels rekenen elke regel meteen uit; een regel die ze weigeren zegt waarom.",
    "Une ligne par manche : qui a annoncé Yaniv (ou qui a vidé sa main), et chaque main montrée. Les règles calculent chaque ligne au fur et à mesure ; une ligne refusée indique pourquoi.",
);
pub const ENDING: Text = Text::new("Ending", "Einde", "Fin");
pub const CALLED_BY: Text = Text::new("called by", "geroepen door", "annoncé par");
pub const EMPTIED_BY: Text = Text::new("hand emptied by", "hand leeg bij", "main vidée par");
pub const HAND: Text = Text::new("hand", "hand", "main");
pub const DECLARED: Text = Text::new("went along", "meegegaan", "a suivi");
pub const TOTALS: Text = Text::new("Totals", "Totalen", "Totaux");
pub const ADD_ROUND: Text = Text::new("Add a round", "Ronde toevoegen", "Ajouter une manche");
pub const REMOVE_ROUND: Text = Text::new(
    "Remove the last round",
    "Laatste ronde verwijderen",
    "Supprimer la dernière manche",
);
pub const RECORD_RESULT: Text = Text::new(
    "Record the result",
    "Uitslag vastleggen",
    "Enregistrer le résultat",
);
pub const REASON: Text = Text::new("Reason", "Reden", "Motif");
pub const RESULT_IN: Text = Text::new(
    "This table has its result:",
    "Deze tafel heeft haar uitslag:",
    "Cette table a son résultat :",
);
pub const NO_SUCH_TABLE: Text = Text::new(
    "There is no such table.",
    "Deze tafel bestaat niet.",
    "Cette table n'existe pas.",
);
pub const FLAGGED: Text = Text::new(
    "A result changed after these rounds were drawn, and their draws would come out differently now. The draws stand; the latest round can be drawn again while none of its tables has started.",
    "Een uitslag veranderde nadat deze rondes geloot werden, en hun loting zou nu anders uitvallen. De lotingen blijven staan; de laatste ronde kan opnieuw geloot worden zolang geen van haar tafels begonnen is.",
    "Un résultat a changé après le tirage de ces rondes, et leurs tirages seraient maintenant différents. Les tirages sont maintenus ; la dernière ronde peut être tirée à nouveau tant qu'aucune de ses tables n'a commencé.",
);
pub const REDRAW: Text = Text::new(
    "Draw this round again",
    "Deze ronde opnieuw loten",
    "Refaire le tirage de cette ronde",
);
pub const FLAGGED_TITLE: Text = Text::new(
    "Draws to review",
    "Lotingen na te kijken",
    "Tirages à revoir",
);
pub const PAPER_TABLES_SHORT: Text =
    Text::new("Tables on paper", "Tafels op papier", "Tables sur papier");

// The referee's replay viewer.
pub const REPLAY: Text = Text::new(
    "Replay of table",
    "Herspelen van tafel",
    "Relecture de la table",
);
pub const REPLAY_HELP: Text = Text::new(
    "The table as it stood after any event of its history: every hand, the stock and the discard pile. Step through it, or go to a version; the address follows, to share it.",
    "De tafel zoals ze er na elke gebeurtenis van haar geschiedenis bij lag: elke hand, de trekstapel en de aflegstapel. Stap erdoorheen, of ga naar een versie; het adres volgt mee, om te delen.",
    "La table telle qu'elle était après chaque événement de son historique : chaque main, la pioche et la défausse. Parcourez-la pas à pas, ou allez à une version ; l'adresse suit, pour la partager.",
);
pub const FIRST: Text = Text::new("First", "Eerste", "Début");
pub const BACK_ONE: Text = Text::new("Back one", "Eén terug", "Précédent");
pub const FORWARD_ONE: Text = Text::new("Forward one", "Eén vooruit", "Suivant");
pub const LAST: Text = Text::new("Last", "Laatste", "Fin");
pub const GO_TO_VERSION: Text = Text::new("Go to version", "Naar versie", "Aller à la version");
pub const GO: Text = Text::new("Go", "Ga", "Aller");
pub const OF: Text = Text::new("of", "van", "sur");
pub const EVENT: Text = Text::new("Event", "Gebeurtenis", "Événement");
pub const RECORD_ACTION: Text = Text::new(
    "round {r}, action {a}",
    "ronde {r}, actie {a}",
    "manche {r}, action {a}",
);
pub const EMPTY_SEAT: Text = Text::new("empty seat", "lege plaats", "place vide");
pub const HAND_CARDS: Text = Text::new("Hand", "Hand", "Main");
pub const HAND_TOTAL: Text = Text::new("Hand total", "Handtotaal", "Total de la main");
pub const SCORE: Text = Text::new("Score", "Stand", "Score");
pub const TO_ACT: Text = Text::new("to act", "aan de beurt", "à jouer");
pub const STOCK: Text = Text::new("Stock", "Trekstapel", "Pioche");
pub const CARDS: Text = Text::new("cards", "kaarten", "cartes");
pub const DISCARD_PILE: Text = Text::new("Discard pile", "Aflegstapel", "Défausse");
/// Every stored event's type (its name without the version), in words.
pub const EVENT_NAMES: Text = Text::new(
    r#"{"table_created":"the table is created","seat_taken":"a seat is taken","seat_left":"a seat is left","table_started":"the game starts","game_created":"the game is set up","round_dealt":"a round is dealt","turn_played":"a turn is played","called":"a call","went_along":"a player goes along or stays out","onderkluft_declared":"an Onderkluft challenge","hands_shown":"the hands are shown","round_ended":"the round ends","game_finished":"the game ends","slapped_down":"a card is slapped down","added_on":"cards are added on","forced_to_draw":"a forced draw","hands_redealt":"the hands are dealt again","pile_killed":"a pile is killed","pinata_set_aside":"a card is set aside (Piñata)","pinata_taken":"the set-aside card is taken (Piñata)","queen_swapped":"a card is given (Crazy queens)","stock_reshuffled":"the stock is reshuffled","waterfall_started":"a waterfall starts","waterfall_picked":"a card is kept from the waterfall","turn_timed_out":"the clock plays a turn","window_closed":"a window closes","window_passed":"a player passes","seat_returned":"a player is back","deal_seed_committed":"the server commits to its deal seed","entropy_contributed":"a player adds to the deal seed"}"#,
    r#"{"table_created":"de tafel wordt aangemaakt","seat_taken":"een plaats wordt ingenomen","seat_left":"een plaats wordt verlaten","table_started":"het spel begint","game_created":"het spel wordt klaargezet","round_dealt":"een ronde wordt gedeeld","turn_played":"een beurt wordt gespeeld","called":"er wordt geroepen","went_along":"een speler gaat mee of niet","onderkluft_declared":"een Onderkluft-uitdaging","hands_shown":"de handen worden getoond","round_ended":"de ronde eindigt","game_finished":"het spel eindigt","slapped_down":"een kaart wordt neergeslagen","added_on":"er worden kaarten bijgelegd","forced_to_draw":"een verplichte trekking","hands_redealt":"de handen worden opnieuw gedeeld","pile_killed":"een stapel wordt geschrapt","pinata_set_aside":"een kaart wordt opzij gelegd (Piñata)","pinata_taken":"de opzij gelegde kaart wordt genomen (Piñata)","queen_swapped":"een kaart wordt gegeven (Gekke vrouwen)","stock_reshuffled":"de stapel wordt opnieuw geschud","waterfall_started":"een waterval begint","waterfall_picked":"een kaart uit de waterval wordt gehouden","turn_timed_out":"de klok speelt een beurt","window_closed":"een venster sluit","window_passed":"een speler past","seat_returned":"een speler is terug","deal_seed_committed":"de server legt zich vast op zijn deelzaad","entropy_contributed":"een speler draagt bij aan het deelzaad"}"#,
    r#"{"table_created":"la table est créée","seat_taken":"une place est prise","seat_left":"une place est quittée","table_started":"la partie commence","game_created":"la partie est préparée","round_dealt":"une manche est distribuée","turn_played":"un tour est joué","called":"une annonce","went_along":"un joueur suit ou non","onderkluft_declared":"un défi Onderkluft","hands_shown":"les mains sont montrées","round_ended":"la manche se termine","game_finished":"la partie se termine","slapped_down":"une carte est claquée","added_on":"des cartes sont ajoutées","forced_to_draw":"une pioche forcée","hands_redealt":"les mains sont redistribuées","pile_killed":"une pile est supprimée","pinata_set_aside":"une carte est mise de côté (Piñata)","pinata_taken":"la carte mise de côté est prise (Piñata)","queen_swapped":"une carte est donnée (Dames folles)","stock_reshuffled":"la pioche est remélangée","waterfall_started":"une cascade commence","waterfall_picked":"une carte de la cascade est gardée","turn_timed_out":"l'horloge joue un tour","window_closed":"une fenêtre se ferme","window_passed":"un joueur passe","seat_returned":"un joueur est de retour","deal_seed_committed":"le serveur s'engage sur sa graine de distribution","entropy_contributed":"un joueur contribue à la graine de distribution"}"#,
);
pub const TURNED_UP: Text = Text::new(
    "turned up at the deal",
    "omgedraaid bij het delen",
    "retournée à la donne",
);
pub const DREW_STOCK: Text = Text::new(
    "drew from the stock",
    "trok van de stapel",
    "a pris dans la pioche",
);
pub const DREW_DISCARD: Text = Text::new(
    "took from the pile",
    "nam van de aflegstapel",
    "a pris dans la défausse",
);
pub const TAKEN_BY: Text = Text::new("taken by", "genomen door", "pris par");
pub const LAID_ON: Text = Text::new("laid on by", "erbij gelegd door", "ajouté par");
pub const RESHUFFLED: Text = Text::new(
    "shuffled back into the stock",
    "teruggeschud in de stapel",
    "remélangé dans la pioche",
);
pub const NOT_DEALT: Text = Text::new(
    "No cards dealt yet.",
    "Nog geen kaarten gedeeld.",
    "Aucune carte distribuée pour l'instant.",
);
pub const SLIPS_DONE: Text = Text::new(
    "Printed: hide the slips",
    "Afgedrukt: de briefjes verbergen",
    "Imprimés : masquer les fiches",
);
pub const SLIPS_DONE_CONFIRM: Text = Text::new(
    "The set-up codes are shown this once. Hide them now?",
    "De activeringscodes worden maar één keer getoond. Nu verbergen?",
    "Les codes d'activation ne s'affichent qu'une fois. Les masquer maintenant ?",
);
pub const TOTALS_ONLY: Text = Text::new(
    "Enter the final totals only",
    "Alleen de eindtotalen invoeren",
    "Saisir seulement les totaux finaux",
);
pub const TOTALS_ONLY_HELP: Text = Text::new(
    "When the sheet's rounds are lost, or the table kept only its totals: each player's final total and place. The result then says it holds totals only, and nobody can re-derive it round by round. A tournament can require the rounds instead.",
    "Als de rondes van het blad verloren zijn, of de tafel alleen totalen bijhield: het eindtotaal en de plaats van elke speler. De uitslag zegt dan dat ze alleen totalen bevat, en niemand kan ze ronde per ronde narekenen. Een toernooi kan de rondes verplichten.",
    "Quand les manches de la feuille sont perdues, ou que la table n'a gardé que ses totaux : le total final et la place de chaque joueur. Le résultat indique alors qu'il ne contient que des totaux, et personne ne peut le recalculer manche par manche. Un tournoi peut exiger les manches.",
);
pub const RECORD_TOTALS: Text = Text::new(
    "Record the totals",
    "De totalen vastleggen",
    "Enregistrer les totaux",
);
pub const HOLDS_TOTALS_ONLY: Text = Text::new(
    "Entered as final totals only.",
    "Ingevoerd als alleen eindtotalen.",
    "Saisi en totaux finaux seulement.",
);
pub const ROUNDS_REQUIRED: Text = Text::new(
    "Paper results round by round only (no final totals alone)",
    "Papieren uitslagen alleen ronde per ronde (geen losse eindtotalen)",
    "Résultats papier manche par manche seulement (pas de totaux seuls)",
);
pub const SEEDED_BY_RATING_OPTION: Text = Text::new(
    "Seed round 1 by the rating list (instead of a random draw)",
    "Ronde 1 plaatsen volgens de ratinglijst (in plaats van een loting)",
    "Placer la manche 1 selon le classement (au lieu d'un tirage au sort)",
);
pub const FRIENDLY_OPTION: Text = Text::new(
    "Friendly: its games do not count towards the rating list",
    "Vriendschappelijk: de spellen tellen niet mee voor de ratinglijst",
    "Amical : ses parties ne comptent pas pour le classement",
);
pub const OPEN_PROJECTOR: Text = Text::new(
    "Open the projector page (for the wall screen)",
    "De projectorpagina openen (voor het grote scherm)",
    "Ouvrir la page du projecteur (pour l'écran mural)",
);
pub const ROUND_CLOCK: Text = Text::new("Round clock", "Rondeklok", "Chrono de la ronde");
pub const NO_CLOCK: Text = Text::new("not running", "loopt niet", "arrêté");
pub const CLOCK_LEFT: Text = Text::new(
    "{minutes} min left",
    "nog {minutes} min",
    "encore {minutes} min",
);
pub const TIME_UP: Text = Text::new("time is up", "de tijd is om", "temps écoulé");
pub const CLOCK_MINUTES: Text = Text::new("Minutes", "Minuten", "Minutes");
pub const START_CLOCK: Text = Text::new("Start the clock", "De klok starten", "Lancer le chrono");
pub const STOP_CLOCK: Text = Text::new("Stop the clock", "De klok stoppen", "Arrêter le chrono");
pub const ANNOUNCEMENT: Text = Text::new("Announcement", "Mededeling", "Annonce");
pub const SHOW_ON_PROJECTOR: Text = Text::new(
    "Show on the projector",
    "Op de projector tonen",
    "Afficher au projecteur",
);
pub const TAKE_DOWN: Text = Text::new("Take it down", "Weghalen", "Retirer");
pub const DOWNLOAD_RECORD: Text = Text::new(
    "Download the game record",
    "Het spelverslag downloaden",
    "Télécharger la feuille de partie",
);
pub const VERIFY: Text = Text::new(
    "Verify the history",
    "Geschiedenis controleren",
    "Vérifier l'historique",
);
pub const VERIFIED: Text = Text::new(
    "ok: every one of the {n} events checks out.",
    "ok: alle {n} gebeurtenissen kloppen.",
    "ok : les {n} événements sont tous valides.",
);
pub const FIRST_FAILURE: Text = Text::new("First failure", "Eerste fout", "Première erreur");
pub const GO_TO_FAILURE: Text = Text::new(
    "Go to that version",
    "Naar die versie",
    "Aller à cette version",
);
pub const THIS_IS_THE_FAILURE: Text = Text::new(
    "This is the version where the history first fails.",
    "Dit is de versie waar de geschiedenis voor het eerst faalt.",
    "C'est la version où l'historique échoue pour la première fois.",
);
pub const EVENTS: Text = Text::new("Events", "Gebeurtenissen", "Événements");
pub const TABLE_CREATED: Text = Text::new(
    "the table is created",
    "de tafel wordt aangemaakt",
    "la table est créée",
);
pub const STEP: Text = Text::new("Step", "Stap", "Étape");
pub const GO_TO_STEP: Text = Text::new("Go to step", "Naar stap", "Aller à l'étape");

// The record viewer.
pub const RECORD_VIEWER: Text = Text::new(
    "Replay a game record",
    "Een spelverslag herspelen",
    "Rejouer un relevé de partie",
);
pub const RECORD_VIEWER_HELP: Text = Text::new(
    "Paste a game record (yaniv-record/1, as the server exports it or as typed in from a paper sheet) or open its file. The rules replay it and you step through it as through a stored table, every hand shown. Nothing is stored.",
    "Plak een spelverslag (yaniv-record/1, zoals de server het uitvoert of zoals overgenomen van een papieren blad) of open het bestand. De regels spelen het opnieuw en je stapt erdoorheen zoals door een opgeslagen tafel, met elke hand zichtbaar. Er wordt niets opgeslagen.",
    "Collez un relevé de partie (yaniv-record/1, tel que le serveur l'exporte ou recopié d'une feuille papier) ou ouvrez son fichier. Les règles le rejouent et vous le parcourez comme une table enregistrée, chaque main visible. Rien n'est enregistré.",
);
pub const RECORD_TEXT: Text = Text::new(
    "Game record (JSON)",
    "Spelverslag (JSON)",
    "Relevé de partie (JSON)",
);
pub const RECORD_FILE: Text = Text::new(
    "Or open a file",
    "Of open een bestand",
    "Ou ouvrez un fichier",
);
pub const REPLAY_RECORD: Text = Text::new("Replay", "Herspelen", "Rejouer");
pub const RECORD_REPLAYS: Text = Text::new(
    "ok: the record replays to its end, {n} steps.",
    "ok: het verslag speelt tot het einde, {n} stappen.",
    "ok : le relevé se rejoue jusqu'au bout, {n} étapes.",
);
pub const RECORD_PROBLEM: Text = Text::new(
    "The rules stop the record at",
    "De regels stoppen het verslag bij",
    "Les règles arrêtent le relevé en",
);
pub const AT_LINE: Text = Text::new(
    "Line {line}, column {column}:",
    "Regel {line}, kolom {column}:",
    "Ligne {line}, colonne {column} :",
);
/// The server's refusals the desk and the account pages meet most, by their stable
/// code, in the page's language; `{name}` is the account the refusal names. A code not
/// listed shows the server's own (English) detail.
pub const REFUSALS: [(&str, Text); 21] = [
    (
        "already_registered",
        Text::new(
            "{name} is already registered.",
            "{name} is al ingeschreven.",
            "{name} est déjà inscrit(e).",
        ),
    ),
    (
        "not_registered",
        Text::new(
            "{name} is not registered.",
            "{name} is niet ingeschreven.",
            "{name} n'est pas inscrit(e).",
        ),
    ),
    (
        "already_checked_in",
        Text::new(
            "{name} has already checked in.",
            "{name} is al aangemeld.",
            "{name} est déjà pointé(e).",
        ),
    ),
    (
        "not_checked_in",
        Text::new(
            "{name} has not checked in.",
            "{name} is niet aangemeld.",
            "{name} n'est pas pointé(e).",
        ),
    ),
    (
        "player_withdrawn",
        Text::new(
            "{name} has withdrawn.",
            "{name} heeft zich teruggetrokken.",
            "{name} s'est retiré(e).",
        ),
    ),
    (
        "capacity_reached",
        Text::new(
            "The tournament is full.",
            "Het toernooi is vol.",
            "Le tournoi est complet.",
        ),
    ),
    (
        "registration_not_open",
        Text::new(
            "Registration is not open.",
            "De inschrijving is niet open.",
            "Les inscriptions ne sont pas ouvertes.",
        ),
    ),
    (
        "already_referee",
        Text::new(
            "{name} is already a referee here.",
            "{name} is hier al scheidsrechter.",
            "{name} est déjà arbitre ici.",
        ),
    ),
    (
        "official_cannot_play",
        Text::new(
            "{name} is an official of this tournament, and officials do not play in it.",
            "{name} is official van dit toernooi, en officials spelen er niet in mee.",
            "{name} est officiel(le) de ce tournoi, et les officiels n'y jouent pas.",
        ),
    ),
    (
        "player_cannot_officiate",
        Text::new(
            "{name} plays in this tournament, and players do not officiate in it.",
            "{name} speelt in dit toernooi mee, en spelers zijn er geen official.",
            "{name} joue dans ce tournoi, et les joueurs n'y arbitrent pas.",
        ),
    ),
    (
        "rounds_required",
        Text::new(
            "This tournament takes paper results round by round, not final totals alone.",
            "Dit toernooi neemt papieren uitslagen ronde per ronde, niet alleen eindtotalen.",
            "Ce tournoi prend les résultats papier manche par manche, pas les seuls totaux.",
        ),
    ),
    (
        "bad_clock",
        Text::new(
            "A round clock runs 1 to 600 minutes.",
            "Een rondeklok loopt 1 tot 600 minuten.",
            "Un chrono de ronde dure de 1 à 600 minutes.",
        ),
    ),
    (
        "username_taken",
        Text::new(
            "That name is taken: choose another.",
            "Die naam is bezet: kies een andere.",
            "Ce nom est déjà pris : choisissez-en un autre.",
        ),
    ),
    (
        "invalid_credentials",
        Text::new(
            "Wrong name or password.",
            "Verkeerde naam of wachtwoord.",
            "Nom ou mot de passe incorrect.",
        ),
    ),
    (
        "too_many_attempts",
        Text::new(
            "Too many tries: wait a moment, then try again.",
            "Te veel pogingen: wacht even en probeer het opnieuw.",
            "Trop d'essais : attendez un moment, puis réessayez.",
        ),
    ),
    (
        "finished",
        Text::new(
            "The tournament is over: nothing changes any more.",
            "Het toernooi is voorbij: er verandert niets meer.",
            "Le tournoi est terminé : plus rien ne change.",
        ),
    ),
    (
        "already_in_season",
        Text::new(
            "This tournament is already in the season.",
            "Dit toernooi zit al in het seizoen.",
            "Ce tournoi fait déjà partie de la saison.",
        ),
    ),
    (
        "not_in_season",
        Text::new(
            "This tournament is not in the season.",
            "Dit toernooi zit niet in het seizoen.",
            "Ce tournoi ne fait pas partie de la saison.",
        ),
    ),
    (
        "unknown_tournament",
        Text::new(
            "There is no such tournament.",
            "Dit toernooi bestaat niet.",
            "Ce tournoi n'existe pas.",
        ),
    ),
    (
        "final_in_its_season",
        Text::new(
            "This tournament is the season's final, seeded by its standings: it cannot count in them.",
            "Dit toernooi is de finale van het seizoen, geplaatst volgens het klassement: het kan er niet in meetellen.",
            "Ce tournoi est la finale de la saison, placé selon son classement : il ne peut pas y compter.",
        ),
    ),
    (
        "too_many_tournaments",
        Text::new(
            "A season holds at most 100 tournaments.",
            "Een seizoen telt hoogstens 100 toernooien.",
            "Une saison compte au plus 100 tournois.",
        ),
    ),
];

/// What a JSON reader's complaint means, in words: the reader's phrase, then ours.
pub const JSON_HINTS: [(&str, Text); 5] = [
    (
        "expected `,` or `}`",
        Text::new(
            "a comma (,) or a closing brace (}) is missing here.",
            "hier ontbreekt een komma (,) of een sluitaccolade (}).",
            "il manque ici une virgule (,) ou une accolade fermante (}).",
        ),
    ),
    (
        "expected `,` or `]`",
        Text::new(
            "a comma (,) or a closing bracket (]) is missing here.",
            "hier ontbreekt een komma (,) of een sluithaak (]).",
            "il manque ici une virgule (,) ou un crochet fermant (]).",
        ),
    ),
    (
        "EOF while parsing",
        Text::new(
            "the text ends before the record does: something was cut off.",
            "de tekst houdt op voor het verslag af is: er is iets afgeknipt.",
            "le texte s'arrête avant la fin du relevé : il manque la fin.",
        ),
    ),
    (
        "trailing comma",
        Text::new(
            "a comma with nothing after it.",
            "een komma zonder iets erna.",
            "une virgule suivie de rien.",
        ),
    ),
    (
        "key must be a string",
        Text::new(
            "a field name must be in double quotes.",
            "een veldnaam hoort tussen dubbele aanhalingstekens.",
            "un nom de champ doit être entre guillemets doubles.",
        ),
    ),
];
pub const RECORD_STOPS_HERE: Text = Text::new(
    "The record stops after this step: the rules refuse its next part.",
    "Het verslag stopt na deze stap: de regels weigeren het volgende deel.",
    "Le relevé s'arrête après cette étape : les règles en refusent la suite.",
);
pub const GO_TO_STOP: Text = Text::new(
    "Go to the last step",
    "Naar de laatste stap",
    "Aller à la dernière étape",
);
pub const CARD_NAMES: Text = Text::new(
    r#"{"A":"ace","J":"jack","Q":"queen","K":"king","JK":"joker","C":"clubs","D":"diamonds","H":"hearts","S":"spades","pattern":"{rank} of {suit}"}"#,
    r#"{"A":"aas","J":"boer","Q":"vrouw","K":"heer","JK":"joker","C":"klaveren","D":"ruiten","H":"harten","S":"schoppen","pattern":"{suit} {rank}"}"#,
    r#"{"A":"as","J":"valet","Q":"dame","K":"roi","JK":"joker","C":"trèfle","D":"carreau","H":"cœur","S":"pique","pattern":"{rank} de {suit}"}"#,
);

// The reference game client.
pub const PLAY: Text = Text::new("Play", "Spelen", "Jouer");
pub const PLAY_INTRO: Text = Text::new(
    "Your tables, a game against the server's bots, or a table other players join.",
    "Je tafels, een spel tegen de bots van de server, of een tafel waar andere spelers aanschuiven.",
    "Vos tables, une partie contre les robots du serveur, ou une table que d'autres joueurs rejoignent.",
);
pub const MY_TABLES: Text = Text::new("My tables", "Mijn tafels", "Mes tables");
pub const NO_MY_TABLES: Text = Text::new(
    "You sit at no table that is open or in play.",
    "Je zit aan geen tafel die open is of bezig.",
    "Vous n'êtes assis à aucune table ouverte ou en cours.",
);
pub const TABLE_OPEN: Text = Text::new(
    "waiting for players",
    "wacht op spelers",
    "attend des joueurs",
);
pub const GO_TO_TABLE: Text = Text::new("Go to the table", "Naar de tafel", "Aller à la table");
pub const PLAY_AT_TABLE: Text = Text::new(
    "Play at this table",
    "Aan deze tafel spelen",
    "Jouer à cette table",
);
pub const BACK_TO_MY_TABLES: Text = Text::new(
    "Back to my tables",
    "Terug naar mijn tafels",
    "Retour à mes tables",
);
pub const BACK_TO_TOURNAMENT: Text = Text::new(
    "Back to the tournament: seating and standings",
    "Terug naar het toernooi: tafelindeling en klassement",
    "Retour au tournoi : placement et classement",
);
pub const LAST_ROUND: Text = Text::new(
    "How the round ended",
    "Hoe de ronde afliep",
    "Comment la manche s'est terminée",
);
pub const OUTCOMES: Text = Text::new(
    r#"{"yaniv":"{caller} called Yaniv and won the round.","assaf":"{caller} called Yaniv; Assaf: another hand was as low or lower.","false_call":"{caller} called above the limit and takes the penalty.","empty_hand":"{winner} emptied their hand.","kluft":"{caller} called Kluft and won.","onderkluft":"{caller} called Kluft; {winner} challenged and won."}"#,
    r#"{"yaniv":"{caller} riep Yaniv en won de ronde.","assaf":"{caller} riep Yaniv; Assaf: een andere hand was even laag of lager.","false_call":"{caller} riep boven de grens en krijgt de straf.","empty_hand":"{winner} speelde de hand leeg.","kluft":"{caller} riep Kluft en won.","onderkluft":"{caller} riep Kluft; {winner} daagde uit en won."}"#,
    r#"{"yaniv":"{caller} a annoncé Yaniv et gagne la manche.","assaf":"{caller} a annoncé Yaniv ; Assaf : une autre main était aussi basse ou plus basse.","false_call":"{caller} a annoncé au-dessus de la limite et prend la pénalité.","empty_hand":"{winner} a vidé sa main.","kluft":"{caller} a annoncé Kluft et gagne.","onderkluft":"{caller} a annoncé Kluft ; {winner} l'a contré et gagne."}"#,
);
pub const HAND_SHOWN: Text = Text::new("hand", "hand", "main");
pub const POINTS_ADDED: Text = Text::new("points", "punten", "points");
pub const TOTAL_AFTER: Text = Text::new("total", "totaal", "total");
pub const OUT_OF_GAME: Text = Text::new("out of the game", "uit het spel", "hors jeu");
pub const HUMANS: Text = Text::new(
    "Players, you included",
    "Spelers, jij inbegrepen",
    "Joueurs, vous compris",
);
pub const OPEN_TABLES: Text = Text::new(
    "Tables waiting for players",
    "Tafels die op spelers wachten",
    "Tables en attente de joueurs",
);
pub const NO_OPEN_TABLES: Text = Text::new(
    "No table is waiting for players.",
    "Geen enkele tafel wacht op spelers.",
    "Aucune table n'attend de joueurs.",
);
pub const REFRESH: Text = Text::new(
    "Refresh the list",
    "De lijst vernieuwen",
    "Actualiser la liste",
);
pub const JOIN: Text = Text::new("Join", "Aanschuiven", "Rejoindre");
pub const OPEN: Text = Text::new("Open", "Openen", "Ouvrir");
pub const BY: Text = Text::new("by", "door", "par");
pub const SEATS_TAKEN: Text = Text::new("seats taken", "plaatsen bezet", "places occupées");
pub const FREE_SEAT: Text = Text::new("free seat", "vrije plaats", "place libre");
pub const YOU: Text = Text::new("you", "jij", "vous");
pub const LEAVE: Text = Text::new("Leave the table", "De tafel verlaten", "Quitter la table");
pub const START_GAME: Text = Text::new("Start the game", "Het spel starten", "Commencer la partie");
pub const WAITING_PLAYERS: Text = Text::new(
    "The table waits for players. Free seats:",
    "De tafel wacht op spelers. Vrije plaatsen:",
    "La table attend des joueurs. Places libres :",
);
pub const READY_TO_START: Text = Text::new(
    "Every seat is taken: the game can start.",
    "Alle plaatsen zijn bezet: het spel kan beginnen.",
    "Toutes les places sont occupées : la partie peut commencer.",
);
pub const CREATOR_STARTS: Text = Text::new(
    "The game is started by",
    "Het spel wordt gestart door",
    "La partie est lancée par",
);
pub const SLAP_DOWN: Text = Text::new("Slap down", "Opleggen:", "Claquer");
pub const ADD_ON: Text = Text::new("Add on", "Aanleggen:", "Ajouter");
pub const PASS: Text = Text::new("Pass", "Passen", "Passer");
pub const COME_BACK: Text = Text::new("I am back", "Ik ben terug", "Je suis de retour");
pub const CONTRIBUTE: Text = Text::new(
    "Add my randomness to the shuffle",
    "Mijn toeval aan het schudden toevoegen",
    "Ajouter mon aléa au mélange",
);
pub const CONTRIBUTE_NOTE: Text = Text::new(
    "The deal waits for every player's randomness: the server committed to its seed, and yours is mixed in.",
    "Het delen wacht op het toeval van elke speler: de server legde zijn seed vast, en het jouwe wordt erdoor gemengd.",
    "La donne attend l'aléa de chaque joueur : le serveur s'est engagé sur sa graine, et le vôtre y est mêlé.",
);
pub const REVERSED: Text = Text::new(
    "A nine reversed the direction of play",
    "Een negen keerde de speelrichting om",
    "Un neuf a inversé le sens du jeu",
);
pub const PINATA_ASIDE: Text = Text::new(
    "A card lies aside for the next three (piñata)",
    "Een kaart ligt opzij voor de volgende drie (piñata)",
    "Une carte est mise de côté pour les trois suivants (piñata)",
);
pub const QUEEN_GIVE: Text = Text::new(
    "Crazy queen: give",
    "Gekke koningin: geef",
    "Dame folle : donner",
);
pub const QUEEN_TO: Text = Text::new("to", "aan", "à");
pub const QUEEN_NOTE: Text = Text::new(
    "and take one of their cards, blindly.",
    "en neem blind een van hun kaarten.",
    "et prendre une de ses cartes, à l'aveugle.",
);
pub const WATERFALL_PASS: Text = Text::new(
    "Pass a waterfall:",
    "Geef een waterval door:",
    "Passer une cascade :",
);
pub const WATERFALL_KEEP: Text = Text::new("Keep", "Houd", "Garder");
pub const PILE_OF: Text = Text::new("Pile for", "Stapel voor", "Pile des");
pub const PILE_SINGLES: Text = Text::new(
    "Pile for single cards",
    "Stapel voor losse kaarten",
    "Pile des cartes seules",
);
pub const PILE_DEAD: Text = Text::new("dead", "dood", "morte");
pub const PILE_KILLED: Text = Text::new(
    "killed this pile for the round (Fifths disease)",
    "heeft deze stapel gedood voor de ronde (Fifths disease)",
    "a tué cette pile pour la manche (Fifths disease)",
);
pub const KILL_PILE: Text = Text::new(
    "Five of diamonds: kill the pile for",
    "Ruiten vijf: dood de stapel voor",
    "Cinq de carreau : tuer la pile des",
);
pub const WATERFALL_YOUR_PICK: Text = Text::new(
    "Your pick: keep one of the cards passed to you; the rest go on to your left.",
    "Jouw keuze: houd een van de kaarten die je krijgt; de rest gaat door naar links.",
    "À vous de choisir : gardez une des cartes qu'on vous passe ; le reste continue vers votre gauche.",
);
pub const WATERFALL_GOING: Text = Text::new(
    "A waterfall is going round",
    "Er gaat een waterval rond",
    "Une cascade fait le tour",
);
pub const ABSENT_NOTE: Text = Text::new(
    "You were marked absent: the server plays your seat until you are back.",
    "Je bent als afwezig gemarkeerd: de server speelt je plaats tot je terug bent.",
    "Vous avez été marqué absent : le serveur joue à votre place jusqu'à votre retour.",
);
pub const CALL_PENALISED: Text = Text::new(
    "Your hand is above the call threshold: the rules accept this call, but score it with a penalty. Call anyway?",
    "Je hand zit boven de grens om te roepen: de regels aanvaarden deze roep, maar met strafpunten. Toch roepen?",
    "Votre main dépasse le seuil d'annonce : les règles acceptent cette annonce, mais avec une pénalité. Annoncer quand même ?",
);
pub const PRESET: Text = Text::new("Rules", "Regels", "Règles");
pub const BOTS: Text = Text::new("Bots", "Bots", "Robots");
pub const NEW_TABLE: Text = Text::new("Start a table", "Een tafel starten", "Ouvrir une table");
pub const YOUR_HAND: Text = Text::new("Your hand", "Je hand", "Votre main");
pub const TOP_OF_PILE: Text = Text::new("On the pile", "Op de aflegstapel", "Sur la défausse");
pub const THROW_DRAW_STOCK: Text = Text::new(
    "Throw, and draw from the stock",
    "Afleggen, en van de stapel trekken",
    "Défausser et piocher dans la pioche",
);
pub const THROW_TAKE: Text = Text::new(
    "Throw, and take",
    "Afleggen, en nemen:",
    "Défausser et prendre",
);
pub const CALL_YANIV: Text = Text::new("Call Yaniv", "Yaniv roepen", "Annoncer Yaniv");
pub const GO_ALONG_BUTTON: Text = Text::new("Go along", "Meegaan", "Suivre");
pub const STAY_OUT: Text = Text::new("Stay out", "Niet meegaan", "Ne pas suivre");
pub const CHALLENGE: Text = Text::new("Challenge", "Uitdagen", "Contester");
pub const NO_CHALLENGE: Text = Text::new("Do not challenge", "Niet uitdagen", "Ne pas contester");
pub const YOUR_TURN: Text = Text::new(
    "Your turn: choose cards to throw.",
    "Jouw beurt: kies kaarten om af te leggen.",
    "À vous : choisissez les cartes à défausser.",
);
pub const WAITING_FOR: Text = Text::new("Waiting for", "Wachten op", "En attente de");
pub const GAME_OVER: Text = Text::new(
    "The game is over.",
    "Het spel is afgelopen.",
    "La partie est terminée.",
);
/// A round of one game (deal to call), where `ROUND` is a round of the tournament.
pub const ROUND_WORD: Text = Text::new("Round", "Ronde", "Manche");
pub const NEW_TOURNAMENT: Text = Text::new(
    "A new tournament",
    "Een nieuw toernooi",
    "Un nouveau tournoi",
);
pub const TOURNAMENT_NAME: Text = Text::new("Name", "Naam", "Nom");
pub const CAPACITY: Text = Text::new(
    "Most players",
    "Maximaal aantal spelers",
    "Nombre maximal de joueurs",
);
pub const QUALIFICATION_ROUNDS: Text = Text::new(
    "Qualification rounds",
    "Kwalificatierondes",
    "Rondes de qualification",
);
pub const TABLE_MIN: Text = Text::new(
    "Fewest players at a table",
    "Minimum spelers per tafel",
    "Minimum de joueurs par table",
);
pub const TABLE_MAX: Text = Text::new(
    "Most players at a table",
    "Maximum spelers per tafel",
    "Maximum de joueurs par table",
);
pub const GAME_ENDS_AT: Text = Text::new(
    "Points limit of a game",
    "Puntengrens van een spel",
    "Limite de points d'une partie",
);
pub const GAME_ENDS_AT_HINT: Text = Text::new(
    "Empty: the rules' own limit. Lower it for shorter games on a tight schedule.",
    "Leeg: de grens van de regels. Verlaag ze voor kortere spellen als de tijd krap is.",
    "Vide : la limite des règles. Abaissez-la pour des parties plus courtes quand le temps presse.",
);
pub const CREATE: Text = Text::new("Create", "Aanmaken", "Créer");
pub const RESULTS_CSV: Text = Text::new("Results (CSV)", "Uitslagen (CSV)", "Résultats (CSV)");
pub const STANDINGS_CSV: Text =
    Text::new("Standings (CSV)", "Klassement (CSV)", "Classement (CSV)");

// The rating list and the players' profiles (ratings/).
// Seasons: `/seasons`, `/seasons/{id}` and the desk's `/desk/seasons`.
pub const SEASONS: Text = Text::new("Seasons", "Seizoenen", "Saisons");
pub const SEASONS_INTRO: Text = Text::new(
    "Series of tournaments whose final rankings add up: each place earns points, and a player's best results count.",
    "Reeksen toernooien waarvan de eindrangschikkingen worden opgeteld: elke plaats levert punten op, en de beste resultaten van een speler tellen.",
    "Des séries de tournois dont les classements finaux s'additionnent : chaque place rapporte des points, et les meilleurs résultats d'un joueur comptent.",
);
pub const NO_SEASONS: Text = Text::new(
    "No season has been created yet.",
    "Er is nog geen seizoen aangemaakt.",
    "Aucune saison n'a encore été créée.",
);
pub const SEASON: Text = Text::new("Season", "Seizoen", "Saison");
pub const CREATED_AT: Text = Text::new("Created", "Aangemaakt", "Créée");
pub const OLDER_SEASONS: Text = Text::new(
    "Older seasons",
    "Oudere seizoenen",
    "Saisons plus anciennes",
);
pub const NEWEST_SEASONS: Text = Text::new(
    "Newest seasons",
    "Nieuwste seizoenen",
    "Saisons les plus récentes",
);
pub const NO_SUCH_SEASON: Text = Text::new(
    "There is no such season.",
    "Dit seizoen bestaat niet.",
    "Cette saison n'existe pas.",
);
pub const POINTS_BY_PLACE: Text =
    Text::new("Points by place", "Punten per plaats", "Points par place");
pub const BEYOND_SCALE: Text = Text::new(
    "; any place further down: 0",
    "; elke lagere plaats: 0",
    " ; toute place plus loin : 0",
);
pub const WHAT_COUNTS: Text = Text::new("What counts", "Wat telt", "Ce qui compte");
pub const BEST_RESULTS_COUNT: Text = Text::new(
    "A player's best {best} results count",
    "De beste {best} resultaten van een speler tellen",
    "Les {best} meilleurs résultats d'un joueur comptent",
);
pub const BEST_RESULT_COUNTS: Text = Text::new(
    "Only a player's best result counts",
    "Alleen het beste resultaat van een speler telt",
    "Seul le meilleur résultat d'un joueur compte",
);
pub const EVERY_RESULT_COUNTS: Text = Text::new(
    "Every result counts",
    "Elk resultaat telt",
    "Chaque résultat compte",
);
pub const COUNTS: Text = Text::new("Counts", "Telt mee", "Compte");
pub const COUNTS_NOW: Text = Text::new("yes", "ja", "oui");
pub const COUNTS_ONCE_FINISHED: Text = Text::new(
    "not yet: once it has finished",
    "nog niet: zodra het afgelopen is",
    "pas encore : une fois terminé",
);
pub const NO_SEASON_TOURNAMENTS: Text = Text::new(
    "No tournament is in this season yet.",
    "Er zit nog geen toernooi in dit seizoen.",
    "Aucun tournoi ne fait encore partie de cette saison.",
);
pub const NO_SEASON_STANDINGS: Text = Text::new(
    "The standings start once a tournament of the season has finished.",
    "Het klassement begint zodra een toernooi van het seizoen afgelopen is.",
    "Le classement commence dès qu'un tournoi de la saison est terminé.",
);
pub const TOTAL: Text = Text::new("Total", "Totaal", "Total");
pub const NOT_COUNTED: Text = Text::new("not counted", "telt niet mee", "ne compte pas");
pub const NO_RESULT: Text = Text::new("no result", "geen resultaat", "pas de résultat");
pub const SEASON_TABLE_HINT: Text = Text::new(
    "Points in parentheses do not count towards the total; a dash means no result in that tournament. Equal totals are split by countback: more counted 1st places, then 2nd places, and so on.",
    "Punten tussen haakjes tellen niet mee voor het totaal; een streepje betekent geen resultaat in dat toernooi. Bij een gelijk totaal beslist het aantal getelde 1e plaatsen, dan 2e plaatsen, enzovoort.",
    "Les points entre parenthèses ne comptent pas dans le total ; un tiret signifie pas de résultat dans ce tournoi. À total égal, le plus de 1res places comptées l'emporte, puis de 2es places, et ainsi de suite.",
);
pub const SEASON_JSON: Text = Text::new(
    "This season through the API (JSON)",
    "Dit seizoen via de API (JSON)",
    "Cette saison via l'API (JSON)",
);
pub const NEW_SEASON: Text = Text::new("New season", "Nieuw seizoen", "Nouvelle saison");
pub const SEASON_NAME: Text = Text::new(
    "Name of the season",
    "Naam van het seizoen",
    "Nom de la saison",
);
pub const SEASON_POINTS: Text = Text::new(
    "Points by place, the first place first, separated by commas",
    "Punten per plaats, de eerste plaats eerst, gescheiden door komma's",
    "Points par place, la première d'abord, séparés par des virgules",
);
pub const SEASON_POINTS_HINT: Text = Text::new(
    "For example 25, 18, 15, 12, 10: never more for a place than for the one above it, at most 64 places.",
    "Bijvoorbeeld 25, 18, 15, 12, 10: nooit meer voor een plaats dan voor de plaats erboven, hoogstens 64 plaatsen.",
    "Par exemple 25, 18, 15, 12, 10 : jamais plus pour une place que pour celle du dessus, 64 places au plus.",
);
pub const SEASON_BEST: Text = Text::new(
    "How many results count (best N)",
    "Hoeveel resultaten tellen (beste N)",
    "Combien de résultats comptent (N meilleurs)",
);
pub const SEASON_BEST_HINT: Text = Text::new(
    "Leave it empty for every result to count.",
    "Laat leeg om elk resultaat te laten tellen.",
    "Laissez vide pour que chaque résultat compte.",
);
pub const DESK_SEASONS_INTRO: Text = Text::new(
    "A season adds up the final rankings of its tournaments. Create one, then add the tournaments that belong to it.",
    "Een seizoen telt de eindrangschikkingen van zijn toernooien op. Maak er een aan en voeg dan de toernooien toe die erbij horen.",
    "Une saison additionne les classements finaux de ses tournois. Créez-en une, puis ajoutez-y les tournois qui en font partie.",
);
pub const ADD_TO_SEASON: Text = Text::new(
    "Add to the season",
    "Aan het seizoen toevoegen",
    "Ajouter à la saison",
);
pub const NOTHING_TO_ADD: Text = Text::new(
    "Every tournament on this server is already in this season.",
    "Elk toernooi op deze server zit al in dit seizoen.",
    "Chaque tournoi de ce serveur fait déjà partie de cette saison.",
);
pub const CONFIRM_REMOVE_FROM_SEASON: Text = Text::new(
    "Take {tournament} out of the season? Its results no longer count.",
    "{tournament} uit het seizoen halen? De resultaten ervan tellen dan niet meer.",
    "Retirer {tournament} de la saison ? Ses résultats ne compteront plus.",
);
pub const SEASON_PUBLIC_PAGE: Text = Text::new(
    "The season's public page",
    "De openbare pagina van het seizoen",
    "La page publique de la saison",
);
pub const POINTS_NOT_NUMBERS: Text = Text::new(
    "The points are whole numbers separated by commas.",
    "De punten zijn gehele getallen, gescheiden door komma's.",
    "Les points sont des nombres entiers séparés par des virgules.",
);

/// A season's field the server refused (`validation_failed`), said in the page's
/// language by the desk's script.
pub const SEASON_FIELD_REFUSALS: [(&str, Text); 3] = [
    (
        "name",
        Text::new(
            "A season's name is 1 to 100 characters.",
            "De naam van een seizoen telt 1 tot 100 tekens.",
            "Le nom d'une saison compte de 1 à 100 caractères.",
        ),
    ),
    (
        "points",
        Text::new(
            "The points are 1 to 64 whole numbers from 0 to 1,000,000, never rising from one place to the next.",
            "De punten zijn 1 tot 64 gehele getallen van 0 tot 1.000.000, die van de ene plaats naar de volgende nooit stijgen.",
            "Les points sont de 1 à 64 nombres entiers de 0 à 1 000 000, qui ne montent jamais d'une place à la suivante.",
        ),
    ),
    (
        "best",
        Text::new(
            "The number of results that count is 1 to 100, or empty for all of them.",
            "Het aantal resultaten dat telt is 1 tot 100, of leeg voor allemaal.",
            "Le nombre de résultats qui comptent va de 1 à 100, ou vide pour tous.",
        ),
    ),
];

pub const RATING_LIST: Text = Text::new("Rating list", "Ratinglijst", "Classement des cotes");
pub const RATINGS_INTRO: Text = Text::new(
    "Every player of the rated tournaments on this server, best first. The rating is mu − 3 × sigma: a skill the player very likely has at least, which grows as their games make it surer.",
    "Alle spelers van de toernooien op deze server die meetellen, de beste eerst. De rating is mu − 3 × sigma: een vaardigheid die de speler zeer waarschijnlijk minstens heeft, en die stijgt naarmate hun spellen ze zekerder maken.",
    "Tous les joueurs des tournois classés de ce serveur, du meilleur au moins bon. La cote vaut mu − 3 × sigma : un niveau que le joueur a très probablement au moins, qui monte à mesure que ses parties le rendent plus sûr.",
);
pub const TOURNAMENT: Text = Text::new("Tournament", "Toernooi", "Tournoi");
pub const RANK: Text = Text::new("Rank", "Rang", "Position");
pub const RATING: Text = Text::new("Rating", "Rating", "Cote");
pub const MU: Text = Text::new("mu (skill)", "mu (vaardigheid)", "mu (niveau)");
pub const SIGMA: Text = Text::new(
    "sigma (uncertainty)",
    "sigma (onzekerheid)",
    "sigma (incertitude)",
);
pub const LAST_PLAYED: Text = Text::new("Last played", "Laatst gespeeld", "Dernière partie");
pub const FROM_DAY: Text = Text::new("From (first day)", "Van (eerste dag)", "Du (premier jour)");
pub const TO_DAY: Text = Text::new(
    "To (last day)",
    "Tot en met (laatste dag)",
    "Au (dernier jour)",
);
pub const MIN_GAMES: Text = Text::new(
    "At least this many games",
    "Minstens zoveel spellen",
    "Au moins ce nombre de parties",
);
pub const PERIOD_HINT: Text = Text::new(
    "Days in UTC. With a period, the list shows the players who played in it, as they stood at its end; empty fields mean all time.",
    "Dagen in UTC. Met een periode toont de lijst de spelers die erin speelden, zoals ze er aan het einde voor stonden; lege velden betekenen: altijd.",
    "Jours en UTC. Avec une période, la liste montre les joueurs qui y ont joué, tels qu'ils étaient à sa fin ; des champs vides veulent dire : depuis toujours.",
);
pub const SHOW: Text = Text::new("Show", "Tonen", "Afficher");
pub const ALL_PLAYERS: Text = Text::new("All players", "Alle spelers", "Tous les joueurs");
pub const NO_RATINGS: Text = Text::new(
    "No player has played a rated game yet.",
    "Nog geen enkele speler heeft een spel gespeeld dat meetelt.",
    "Aucun joueur n'a encore joué de partie classée.",
);
pub const NO_RATINGS_MATCH: Text = Text::new(
    "No player matches these filters.",
    "Geen speler voldoet aan deze filters.",
    "Aucun joueur ne correspond à ces filtres.",
);
pub const RATINGS_SHOWN: Text = Text::new(
    "Players {first} to {last} of {total}, from {games} rated games.",
    "Spelers {first} tot {last} van {total}, uit {games} spellen die meetellen.",
    "Joueurs {first} à {last} sur {total}, d'après {games} parties classées.",
);
pub const LIST_PAGES: Text = Text::new(
    "Pages of the list",
    "Pagina's van de lijst",
    "Pages de la liste",
);
pub const PREVIOUS_PLAYERS: Text =
    Text::new("Previous players", "Vorige spelers", "Joueurs précédents");
pub const NEXT_PLAYERS: Text = Text::new("Next players", "Volgende spelers", "Joueurs suivants");
pub const BAD_FROM: Text = Text::new(
    "The first day is not a date: choose it in the calendar, or write it as 2026-06-01.",
    "De eerste dag is geen datum: kies hem in de kalender, of schrijf hem als 2026-06-01.",
    "Le premier jour n'est pas une date : choisissez-le dans le calendrier, ou écrivez-le sous la forme 2026-06-01.",
);
pub const BAD_TO: Text = Text::new(
    "The last day is not a date: choose it in the calendar, or write it as 2026-06-30.",
    "De laatste dag is geen datum: kies hem in de kalender, of schrijf hem als 2026-06-30.",
    "Le dernier jour n'est pas une date : choisissez-le dans le calendrier, ou écrivez-le sous la forme 2026-06-30.",
);
pub const REVERSED_PERIOD: Text = Text::new(
    "The last day comes before the first day.",
    "De laatste dag valt vóór de eerste dag.",
    "Le dernier jour précède le premier jour.",
);
pub const BAD_MIN_GAMES: Text = Text::new(
    "The number of games must be a whole number, 0 or more.",
    "Het aantal spellen moet een geheel getal zijn, 0 of meer.",
    "Le nombre de parties doit être un nombre entier, 0 ou plus.",
);
pub const BAD_LIST_PAGE: Text = Text::new(
    "There is no such page of the list: offset and limit are whole numbers, the limit from 1 to 500.",
    "Deze pagina van de lijst bestaat niet: offset en limit zijn gehele getallen, de limit van 1 tot 500.",
    "Cette page de la liste n'existe pas : offset et limit sont des nombres entiers, limit de 1 à 500.",
);
pub const NOT_RATED: Text = Text::new(
    "Not rated yet: no rated game played.",
    "Nog geen rating: nog geen spel gespeeld dat meetelt.",
    "Pas encore de cote : aucune partie classée jouée.",
);
pub const PLAYED_TOURNAMENTS: Text = Text::new(
    "Rated tournaments played",
    "Gespeelde toernooien die meetellen",
    "Tournois classés joués",
);
pub const FINAL_PLACE: Text = Text::new("Final place", "Eindplaats", "Place finale");
pub const CASUAL_TABLE: Text = Text::new("Casual table", "Vrije tafel", "Table libre");
pub const CASUAL_GAMES: Text = Text::new(
    "Rated casual tables played",
    "Gespeelde vrije tafels die meetellen",
    "Tables libres classées jouées",
);
pub const NOT_PUBLISHED: Text =
    Text::new("not published yet", "nog niet bekend", "pas encore publiée");
pub const RATING_OVER_TIME: Text = Text::new(
    "Rating over time",
    "Rating door de tijd",
    "Évolution de la cote",
);
pub const CHART_DESCRIPTION: Text = Text::new(
    "A line through the rating after each of the player's {n} rated games, from {low} at the lowest to {high} at the highest. The table below lists every point.",
    "Een lijn door de rating na elk van de {n} spellen van de speler die meetellen, van {low} op het laagst tot {high} op het hoogst. De tabel eronder geeft elk punt.",
    "Une ligne passant par la cote après chacune des {n} parties classées du joueur, de {low} au plus bas à {high} au plus haut. Le tableau ci-dessous donne chaque point.",
);
pub const CHART_POINTS: Text = Text::new(
    "Every point of the chart",
    "Elk punt van de grafiek",
    "Chaque point du graphique",
);
pub const RATED_GAMES: Text = Text::new("Rated games", "Spellen die meetellen", "Parties classées");
pub const GAME_NUMBER: Text = Text::new("Game", "Spel", "Partie");
pub const PLAYED_AT: Text = Text::new("Played", "Gespeeld", "Jouée");
pub const PLACE_OF: Text = Text::new(
    "{place} of {players}",
    "{place} van {players}",
    "{place} sur {players}",
);
pub const CHANGE: Text = Text::new("Change", "Verschil", "Variation");
pub const NO_HISTORY: Text = Text::new(
    "No rated game yet, so no chart.",
    "Nog geen spel dat meetelt, dus geen grafiek.",
    "Pas encore de partie classée, donc pas de graphique.",
);
pub const HEAD_TO_HEAD: Text = Text::new("Head to head", "Onderling", "Face-à-face");
pub const OPPONENT: Text = Text::new("Opponent", "Tegenstander", "Adversaire");
pub const CHOOSE_PLAYER: Text = Text::new(
    "— choose a player —",
    "— kies een speler —",
    "— choisissez un joueur —",
);
pub const COMPARE: Text = Text::new("Compare", "Vergelijken", "Comparer");
pub const AGAINST: Text = Text::new("Against {name}", "Tegen {name}", "Contre {name}");
pub const SAME_TABLE_GAMES: Text = Text::new(
    "Games at one table",
    "Spellen aan dezelfde tafel",
    "Parties à la même table",
);
pub const FINISHED_AHEAD: Text = Text::new("Finished ahead", "Eindigde voor", "Terminé devant");
pub const FINISHED_BEHIND: Text =
    Text::new("Finished behind", "Eindigde achter", "Terminé derrière");
pub const SHARED_PLACE: Text = Text::new("Shared a place", "Gedeelde plaats", "Place partagée");
pub const NEVER_MET: Text = Text::new(
    "The two have not played at one table yet.",
    "De twee hebben nog niet aan dezelfde tafel gespeeld.",
    "Les deux n'ont pas encore joué à la même table.",
);
pub const NO_SUCH_OPPONENT: Text = Text::new(
    "No player has this name.",
    "Geen speler heeft deze naam.",
    "Aucun joueur ne porte ce nom.",
);
pub const SAME_OPPONENT: Text = Text::new(
    "Choose another player than the profile's own.",
    "Kies een andere speler dan die van het profiel.",
    "Choisissez un autre joueur que celui du profil.",
);
pub const NO_SUCH_PLAYER: Text = Text::new(
    "There is no player with this name.",
    "Er is geen speler met deze naam.",
    "Il n'y a pas de joueur de ce nom.",
);
pub const PROFILE_JSON: Text = Text::new(
    "This profile through the API (JSON)",
    "Dit profiel via de API (JSON)",
    "Ce profil via l'API (JSON)",
);

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// Every `Text::new(...)` of this file, as (where, its three strings).
    fn texts() -> Vec<(String, Vec<String>)> {
        let source = include_str!("text.rs");
        let tests_start = source.find("#[cfg(test)]").unwrap_or(source.len());
        let mut found = Vec::new();
        let mut rest = &source[..tests_start];
        while let Some(at) = rest.find("Text::new(") {
            let line = source[..tests_start].len() - rest.len() + at;
            let line = source[..line].lines().count();
            rest = &rest[at + "Text::new(".len()..];
            let mut strings = Vec::new();
            let mut body = rest;
            while strings.len() < 3 {
                body = body.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
                let raw = body.starts_with("r#\"");
                let (open, close) = if raw { ("r#\"", "\"#") } else { ("\"", "\"") };
                let Some(start) = body.find(open) else { break };
                let after = &body[start + open.len()..];
                let end = if raw {
                    after.find(close)
                } else {
                    // The first quote not escaped by a backslash.
                    after
                        .char_indices()
                        .find(|&(i, c)| c == '"' && !after[..i].ends_with('\\'))
                        .map(|(i, _)| i)
                };
                let Some(end) = end else { break };
                strings.push(after[..end].to_owned());
                body = &after[end + close.len()..];
            }
            found.push((format!("text.rs:{line}"), strings));
        }
        found
    }

    fn placeholders(text: &str) -> BTreeSet<String> {
        text.split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name.to_owned()))
            .filter(|name| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            })
            .collect()
    }

    #[test]
    fn every_text_exists_in_english_dutch_and_french() {
        let texts = texts();
        assert!(
            texts.len() > 250,
            "the parser found only {} texts",
            texts.len()
        );
        for (at, strings) in &texts {
            assert_eq!(strings.len(), 3, "{at}: {strings:?}");
            for s in strings {
                assert!(!s.trim().is_empty(), "{at}: an empty translation");
            }
        }
    }

    #[test]
    fn the_three_languages_fill_in_the_same_placeholders() {
        for (at, strings) in texts() {
            let english = placeholders(&strings[0]);
            for other in &strings[1..] {
                assert_eq!(placeholders(other), english, "{at}: {other}");
            }
        }
    }

    #[test]
    fn texts_that_are_json_have_the_same_keys_in_every_language() {
        let mut checked = 0;
        for (at, strings) in texts() {
            let Ok(serde_json::Value::Object(english)) = serde_json::from_str(&strings[0]) else {
                continue;
            };
            checked += 1;
            for other in &strings[1..] {
                let parsed: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(other).unwrap_or_else(|e| panic!("{at}: {e}"));
                assert!(
                    parsed.keys().eq(english.keys()),
                    "{at}: keys differ from English"
                );
            }
        }
        assert!(checked >= 2, "CARD_NAMES and OUTCOMES are JSON");
    }
}

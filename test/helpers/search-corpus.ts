/**
 * The labelled corpus of the semantic-search quality check: the website of a small coffee roastery
 * with cafés, an online shop and a subscription, in English and German, and queries written as visitors type
 * them, paraphrasing rather than quoting the entry that answers. Four entries (ent_account, ent_app,
 * ent_workshops, ent_allergens) carry the answer to their query only in a block, so the check also covers that
 * block text is indexed.
 */

export const SEARCH_TOKEN = 'folio_pub_SearchQualityToken0000000001';
export const SEARCH_MGT_TOKEN = 'folio_mgt_SearchQualityToken000000002';

/** English, German. */
type Text = readonly [en: string, de: string];

interface Topic {
  id: string;
  type: 'page' | 'article';
  slug: Text;
  title: Text;
  summary: Text;
  body: Text;
  section?: { heading: Text; text: Text };
}

const TOPICS: readonly Topic[] = [
  {
    id: 'ent_shipping',
    type: 'page',
    slug: ['delivery-times', 'lieferzeiten'],
    title: ['Delivery times', 'Lieferzeiten'],
    summary: [
      'We roast to order and send out fresh coffee from Hamburg every weekday. Within Germany, most orders are with you two days after roasting.',
      'Wir rösten auf Bestellung und verschicken jeden Werktag frischen Kaffee aus Hamburg. Innerhalb Deutschlands sind die meisten Bestellungen zwei Tage nach der Röstung bei Ihnen.',
    ],
    body: [
      'Orders placed before 11 am are roasted and packed the same day; later orders go out on the next working day. Standard delivery with DHL takes one to three working days. If you are in a hurry, choose Express at checkout for 6.90 euros and your coffee arrives the next day. As soon as your parcel leaves the roastery, we email you a tracking link.',
      'Bestellungen, die vor 11 Uhr eingehen, werden am selben Tag geröstet und verpackt; spätere gehen am nächsten Werktag raus. Der Standardversand mit DHL dauert ein bis drei Werktage. Wenn es eilt, wählen Sie an der Kasse für 6,90 Euro den Expressversand, dann ist Ihr Kaffee am nächsten Tag da. Sobald Ihr Paket die Rösterei verlässt, schicken wir Ihnen per E-Mail einen Link zur Sendungsverfolgung.',
    ],
  },
  {
    id: 'ent_returns',
    type: 'page',
    slug: ['returns', 'rueckgabe'],
    title: ['Returns and refunds', 'Rückgabe und Erstattung'],
    summary: [
      'Not happy with something you bought? You can return it within 30 days of delivery, and we refund the full price once it is back with us.',
      'Sie sind mit einem Kauf nicht zufrieden? Sie können ihn innerhalb von 30 Tagen nach der Lieferung zurückgeben, und wir erstatten den vollen Preis, sobald er wieder bei uns ist.',
    ],
    body: [
      'Equipment such as grinders, kettles and cups can be sent back unused in its original box. For hygiene reasons we cannot take back opened bags of coffee, but if a roast is not to your taste, tell us and we will send you a different one free of charge. Print the free returns label from your order confirmation and hand the box in at any post office. The money goes back to your original payment method within five working days.',
      'Zubehör wie Mühlen, Wasserkocher und Tassen können Sie unbenutzt in der Originalverpackung zurückschicken. Geöffnete Kaffeebeutel nehmen wir aus hygienischen Gründen nicht zurück; schmeckt Ihnen eine Röstung nicht, sagen Sie uns Bescheid, und wir schicken Ihnen kostenlos eine andere. Drucken Sie das kostenlose Rücksendeetikett aus Ihrer Bestellbestätigung aus und geben Sie den Karton in einer Postfiliale ab. Das Geld geht innerhalb von fünf Werktagen auf Ihr ursprüngliches Zahlungsmittel zurück.',
    ],
  },
  {
    id: 'ent_account',
    type: 'page',
    slug: ['account', 'kundenkonto'],
    title: ['Your customer account', 'Ihr Kundenkonto'],
    summary: [
      'Your account keeps your orders, invoices and delivery addresses in one place. You can change your details at any time.',
      'In Ihrem Konto finden Sie Bestellungen, Rechnungen und Lieferadressen an einem Ort. Ihre Angaben können Sie jederzeit ändern.',
    ],
    body: [
      'You create an account the first time you check out; to log in later, use the same email address. Under Settings you can update your name, add a second delivery address or download invoices as PDF files.',
      'Ein Konto legen Sie bei Ihrer ersten Bestellung an; zum Einloggen nutzen Sie später dieselbe E-Mail-Adresse. Unter „Einstellungen“ können Sie Ihren Namen ändern, eine zweite Lieferadresse hinzufügen oder Rechnungen als PDF herunterladen.',
    ],
    section: {
      heading: ['Forgotten your password?', 'Passwort vergessen?'],
      text: [
        'Click “Forgot password” on the sign-in page and enter the email address you registered with. We will send you a link that is valid for one hour; follow it to choose a new password. If nothing arrives within a few minutes, please check your spam folder.',
        'Klicken Sie auf der Anmeldeseite auf „Passwort vergessen“ und geben Sie die E-Mail-Adresse ein, mit der Sie sich registriert haben. Wir senden Ihnen einen Link, der eine Stunde gültig ist; darüber wählen Sie ein neues Passwort. Kommt nach einigen Minuten nichts an, sehen Sie bitte in Ihrem Spam-Ordner nach.',
      ],
    },
  },
  {
    id: 'ent_plans',
    type: 'page',
    slug: ['plans', 'abo-tarife'],
    title: ['Subscription plans and prices', 'Abo-Tarife und Preise'],
    summary: [
      'Tell us how much coffee you drink and we deliver it freshly roasted. There are three plans, all with free shipping.',
      'Sagen Sie uns, wie viel Kaffee Sie trinken, und wir liefern ihn frisch geröstet. Es gibt drei Tarife, alle mit kostenlosem Versand.',
    ],
    body: [
      'Solo brings one 250 g bag every two weeks for 9.50 euros per delivery. Duo brings two bags for 18 euros, and Office delivers a one-kilo bag of whole beans every week for 29 euros. You choose beans or ground coffee and can switch plans before any delivery.',
      'Solo bringt alle zwei Wochen einen 250-g-Beutel für 9,50 Euro pro Lieferung. Duo bringt zwei Beutel für 18 Euro, und Office liefert jede Woche ein Kilo ganze Bohnen für 29 Euro. Sie wählen Bohnen oder gemahlenen Kaffee und können den Tarif vor jeder Lieferung wechseln.',
    ],
  },
  {
    id: 'ent_cancel',
    type: 'article',
    slug: ['pause-or-cancel', 'abo-pausieren-kuendigen'],
    title: ['Pausing or ending your subscription', 'Abo pausieren oder beenden'],
    summary: [
      'Your subscription has no minimum term. You can take a break or stop it with two clicks.',
      'Ihr Abo hat keine Mindestlaufzeit. Mit zwei Klicks legen Sie eine Pause ein oder beenden es.',
    ],
    body: [
      'Going away? Skip single deliveries or pause for up to three months. To cancel for good, open Subscription in your account, choose Cancel and confirm; a delivery that has already been roasted will still be sent. There is no cancellation fee, and we will not charge you again after that.',
      'Sie verreisen? Überspringen Sie einzelne Lieferungen oder pausieren Sie bis zu drei Monate. Um endgültig zu kündigen, öffnen Sie in Ihrem Konto „Abo“, wählen „Kündigen“ und bestätigen; eine bereits geröstete Lieferung wird noch verschickt. Eine Kündigungsgebühr gibt es nicht, und danach buchen wir nichts mehr ab.',
    ],
  },
  {
    id: 'ent_privacy',
    type: 'page',
    slug: ['privacy', 'datenschutz'],
    title: ['Privacy policy', 'Datenschutzerklärung'],
    summary: [
      'This policy explains which personal data we process and why. We follow the EU General Data Protection Regulation (GDPR).',
      'Diese Erklärung beschreibt, welche personenbezogenen Daten wir verarbeiten und warum. Wir halten uns an die Datenschutz-Grundverordnung (DSGVO).',
    ],
    body: [
      'We use your name, address and email only to handle your orders and, if you agree, to send you our newsletter. We never sell your information to third parties. You have the right to see what we store about you and to have it corrected or deleted. Write to our data protection officer at privacy@example.com.',
      'Ihren Namen, Ihre Adresse und Ihre E-Mail-Adresse nutzen wir nur, um Ihre Bestellungen abzuwickeln, und, wenn Sie zustimmen, für unseren Newsletter. Wir verkaufen Ihre Daten niemals an Dritte. Sie haben das Recht zu erfahren, welche Informationen wir über Sie speichern, und sie berichtigen oder löschen zu lassen. Schreiben Sie an unsere Datenschutzbeauftragte unter privacy@example.com.',
    ],
  },
  {
    id: 'ent_hours',
    type: 'page',
    slug: ['opening-hours', 'oeffnungszeiten'],
    title: ['Opening hours', 'Öffnungszeiten'],
    summary: [
      'When you can visit our café and roastery shop in Ottensen. We are open six days a week.',
      'Wann Sie unser Café und den Röstereiladen in Ottensen besuchen können. Wir haben sechs Tage in der Woche geöffnet.',
    ],
    body: [
      'From Monday to Friday we are there for you from 8 am to 6 pm, on Saturdays from 9 am to 5 pm. We are closed on Sundays and public holidays. Between Christmas and New Year shorter times apply, which we announce on Instagram.',
      'Montags bis freitags sind wir von 8 bis 18 Uhr für Sie da, samstags von 9 bis 17 Uhr. An Sonn- und Feiertagen bleibt das Café geschlossen. Zwischen Weihnachten und Neujahr gelten kürzere Zeiten, die wir auf Instagram ankündigen.',
    ],
  },
  {
    id: 'ent_contact',
    type: 'page',
    slug: ['contact', 'kontakt'],
    title: ['Contact and support', 'Kontakt und Support'],
    summary: [
      'Questions about an order, a machine or your subscription? Our customer service team is happy to help.',
      'Fragen zu einer Bestellung, einer Maschine oder Ihrem Abo? Unser Kundenservice hilft Ihnen gern.',
    ],
    body: [
      'Email hello@example.com and we reply within one working day. Call us on +49 40 1234567 from Monday to Friday, 9 am to 4 pm. If your question is about an existing order, please have your order number ready.',
      'Schreiben Sie an hello@example.com, wir antworten innerhalb eines Werktags. Telefonisch erreichen Sie uns unter +49 40 1234567, montags bis freitags von 9 bis 16 Uhr. Halten Sie bei Fragen zu einer bestehenden Bestellung bitte Ihre Bestellnummer bereit.',
    ],
    section: {
      heading: ['Live chat', 'Live-Chat'],
      text: [
        'On weekdays, the chat button at the bottom right of every page puts you straight through to a member of our team. Outside these hours, leave a message and we will answer by email the next morning.',
        'An Werktagen verbindet Sie der Chat-Button unten rechts auf jeder Seite direkt mit jemandem aus unserem Team. Außerhalb dieser Zeiten hinterlassen Sie eine Nachricht, und wir antworten am nächsten Morgen per E-Mail.',
      ],
    },
  },
  {
    id: 'ent_careers',
    type: 'page',
    slug: ['careers', 'karriere'],
    title: ['Careers', 'Karriere'],
    summary: [
      'We are a team of 35 people who care about good coffee. Come and work with us in Hamburg.',
      'Wir sind ein Team aus 35 Menschen, denen guter Kaffee am Herzen liegt. Arbeiten Sie mit uns in Hamburg.',
    ],
    body: [
      'We are currently hiring baristas for our cafés, a production roaster and an assistant for the online shop. Every position comes with 30 days of annual leave, a public transport pass and a free bag of coffee each week. Send your CV and a few lines about yourself to jobs@example.com.',
      'Zurzeit suchen wir Baristas für unsere Cafés, eine Röstereimitarbeiterin oder einen Röstereimitarbeiter für die Produktion und eine Aushilfe für den Onlineshop. Jede Stelle bietet 30 Urlaubstage, ein Deutschlandticket und jede Woche einen Beutel Kaffee gratis. Schicken Sie Ihren Lebenslauf und ein paar Zeilen über sich an jobs@example.com.',
    ],
    section: {
      heading: ['How we hire', 'So läuft die Bewerbung'],
      text: [
        'After a short video call we invite you to a trial shift, which is of course paid. You will hear back from us within two weeks.',
        'Nach einem kurzen Videotelefonat laden wir Sie zu einem Probearbeitstag ein, der selbstverständlich bezahlt wird. Innerhalb von zwei Wochen hören Sie von uns.',
      ],
    },
  },
  {
    id: 'ent_history',
    type: 'article',
    slug: ['our-story', 'unsere-geschichte'],
    title: ['Our story', 'Unsere Geschichte'],
    summary: [
      'How a small roaster in a garage became a Hamburg favourite. Fifteen years of coffee, told in brief.',
      'Wie aus einer kleinen Rösterei in einer Garage eine Hamburger Institution wurde. Fünfzehn Jahre Kaffee, kurz erzählt.',
    ],
    body: [
      'Jana and Malte founded the roastery in 2010, experimenting with a second-hand five-kilo roaster in a garage in Altona. Two years later they opened their first café down by the harbour. Today the company roasts around 120 tonnes of coffee a year.',
      'Jana und Malte gründeten die Rösterei 2010 und experimentierten mit einem gebrauchten Fünf-Kilo-Röster in einer Garage in Altona. Zwei Jahre später eröffneten sie ihr erstes Café unten am Hafen. Heute röstet das Unternehmen rund 120 Tonnen Kaffee im Jahr.',
    ],
    section: {
      heading: ['Milestones', 'Meilensteine'],
      text: [
        '2012: our first café opens at the harbour. 2016: the online shop goes live. 2021: we move into a new roastery in Ottensen with a 60-kilo drum roaster.',
        '2012: Unser erstes Café am Hafen öffnet. 2016: Der Onlineshop geht an den Start. 2021: Wir ziehen in eine neue Rösterei in Ottensen mit einem 60-Kilo-Trommelröster.',
      ],
    },
  },
  {
    id: 'ent_sustainability',
    type: 'article',
    slug: ['sustainability', 'nachhaltigkeit'],
    title: ['Sustainability', 'Nachhaltigkeit'],
    summary: [
      'We want every cup to leave as small a footprint as possible. Here is what we do about it.',
      'Jede Tasse soll einen möglichst kleinen ökologischen Fußabdruck hinterlassen. Das tun wir dafür.',
    ],
    body: [
      'Our coffee bags are made of paper with a plant-based lining and can be composted. Shipping boxes are 100 % recycled cardboard, with no plastic tape or filler. Our roaster runs on green electricity, and the chaff left over from roasting goes to a market garden nearby as fertiliser.',
      'Unsere Kaffeebeutel bestehen aus Papier mit einer pflanzlichen Innenschicht und lassen sich kompostieren. Die Versandkartons sind zu 100 % aus Altpapier, ganz ohne Plastikklebeband und Füllmaterial. Unser Röster läuft mit Ökostrom, und die Silberhäutchen, die beim Rösten anfallen, gehen als Dünger an eine Gärtnerei in der Nähe.',
    ],
  },
  {
    id: 'ent_giftcards',
    type: 'page',
    slug: ['gift-cards', 'geschenkgutscheine'],
    title: ['Gift cards', 'Geschenkgutscheine'],
    summary: [
      'Let the coffee lovers in your life choose for themselves. Our gift cards are available from 15 to 200 euros.',
      'Lassen Sie die Kaffeeliebhaber in Ihrem Leben selbst wählen. Unsere Gutscheine gibt es im Wert von 15 bis 200 Euro.',
    ],
    body: [
      'You receive the card by email straight after payment, ready to print or forward. It can be redeemed in the online shop and in all our cafés and is valid for three years. Any remaining balance stays on the card for your next visit.',
      'Sie erhalten den Gutschein direkt nach der Zahlung per E-Mail, zum Ausdrucken oder Weiterleiten. Er lässt sich im Onlineshop und in allen unseren Cafés einlösen und ist drei Jahre gültig. Ein Restguthaben bleibt für Ihren nächsten Besuch auf dem Gutschein.',
    ],
  },
  {
    id: 'ent_payment',
    type: 'page',
    slug: ['payment', 'zahlungsarten'],
    title: ['Payment methods', 'Zahlungsarten'],
    summary: [
      'Pay the way that suits you best. Every payment is encrypted and processed securely.',
      'Bezahlen Sie so, wie es Ihnen am besten passt. Jede Zahlung ist verschlüsselt und wird sicher abgewickelt.',
    ],
    body: [
      'We accept Visa, Mastercard, American Express, PayPal, Apple Pay and Google Pay. Customers in Germany can also buy on account and pay the invoice within 14 days. Subscriptions are charged to your card or PayPal on the day your coffee is roasted.',
      'Wir akzeptieren Visa, Mastercard, American Express, PayPal, Apple Pay und Google Pay. Kundinnen und Kunden in Deutschland können auch auf Rechnung kaufen und innerhalb von 14 Tagen bezahlen. Abos buchen wir am Rösttag von Ihrer Karte oder Ihrem PayPal-Konto ab.',
    ],
  },
  {
    id: 'ent_international',
    type: 'article',
    slug: ['delivery-abroad', 'lieferung-ausland'],
    title: ['Delivery abroad', 'Lieferung ins Ausland'],
    summary: [
      'We send our coffee to more than 30 countries. Delivery times and costs depend on the destination.',
      'Wir verschicken unseren Kaffee in mehr als 30 Länder. Lieferzeit und Kosten hängen vom Zielland ab.',
    ],
    body: [
      'Within the EU, your order takes three to six working days and costs 9.90 euros. For Switzerland, the UK, Norway and other countries outside the EU, customs duties and import VAT may be due on arrival; the carrier collects them and they are not included in our prices. We cannot ship to the United States at the moment.',
      'Innerhalb der EU ist Ihre Sendung drei bis sechs Werktage unterwegs und kostet 9,90 Euro. Für die Schweiz, Großbritannien, Norwegen und andere Länder außerhalb der EU können bei der Ankunft Zölle und Einfuhrumsatzsteuer anfallen; diese zieht der Zusteller ein, sie sind nicht in unseren Preisen enthalten. In die USA können wir derzeit leider nicht liefern.',
    ],
  },
  {
    id: 'ent_warranty',
    type: 'article',
    slug: ['warranty-repairs', 'garantie-reparatur'],
    title: ['Warranty and repairs', 'Garantie und Reparaturen'],
    summary: [
      'All grinders and espresso machines from our shop come with a two-year guarantee. After that, our workshop keeps them running.',
      'Alle Mühlen und Espressomaschinen aus unserem Shop haben zwei Jahre Garantie. Danach hält unsere Werkstatt sie am Laufen.',
    ],
    body: [
      'If a machine stops working during the guarantee period, we collect it from your home and fix or replace it free of charge. For older machines we offer a fixed-price service from 79 euros, including descaling and new seals. Book a pickup through our contact form and we will send you a padded box.',
      'Funktioniert eine Maschine während der Garantiezeit nicht mehr, holen wir sie bei Ihnen ab und reparieren oder ersetzen sie kostenlos. Für ältere Geräte bieten wir einen Service zum Festpreis ab 79 Euro an, inklusive Entkalken und neuer Dichtungen. Buchen Sie die Abholung über unser Kontaktformular, dann schicken wir Ihnen einen gepolsterten Karton.',
    ],
  },
  {
    id: 'ent_grind',
    type: 'article',
    slug: ['grind-guide', 'mahlgrad'],
    title: ['Which grind for which brewer', 'Der richtige Mahlgrad'],
    summary: [
      'The right fineness makes all the difference in the cup. Use this guide when you order ground coffee.',
      'Die richtige Feinheit macht in der Tasse den Unterschied. Nutzen Sie diesen Leitfaden, wenn Sie gemahlenen Kaffee bestellen.',
    ],
    body: [
      'For espresso, choose fine, like powdered sugar. Filter and pour-over need a medium grind similar to sand, while a French press needs coarse, like sea salt. If your coffee tastes bitter, go one step coarser; if it tastes sour, go finer.',
      'Für Espresso wählen Sie eine feine Mahlung, etwa wie Puderzucker. Filter und Handaufguss brauchen eine mittlere Stufe, ähnlich wie Sand, eine French Press dagegen eine grobe, wie Meersalz. Schmeckt Ihr Kaffee bitter, stellen Sie eine Stufe gröber ein; schmeckt er sauer, feiner.',
    ],
    section: {
      heading: ['How much coffee to use', 'Die richtige Dosierung'],
      text: [
        'As a starting point, use 60 grams of coffee per litre of water for filter and 18 grams for a double espresso. Weigh it rather than measuring by the spoon.',
        'Als Ausgangspunkt nehmen Sie für Filterkaffee 60 Gramm Kaffee pro Liter Wasser und für einen doppelten Espresso 18 Gramm. Wiegen Sie lieber, statt mit dem Löffel abzumessen.',
      ],
    },
  },
  {
    id: 'ent_loyalty',
    type: 'article',
    slug: ['rewards', 'bonusprogramm'],
    title: ['Bean points', 'Bohnenpunkte'],
    summary: [
      'Our rewards programme says thank you to our most loyal guests. You collect points in the café and online.',
      'Mit unserem Bonusprogramm sagen wir unseren treuesten Gästen Danke. Punkte sammeln Sie im Café und online.',
    ],
    body: [
      'For every euro you spend, you earn one point. At 100 points you can choose a free drink, and at 250 points a bag of coffee of your choice. Points expire after 24 months without a purchase. Show the code in our app at the till, or sign in when you check out online.',
      'Für jeden ausgegebenen Euro erhalten Sie einen Punkt. Ab 100 Punkten wählen Sie ein Getränk gratis, ab 250 Punkten einen Beutel Kaffee Ihrer Wahl. Punkte verfallen nach 24 Monaten ohne Einkauf. Zeigen Sie an der Kasse den Code in unserer App oder melden Sie sich beim Bestellen online an.',
    ],
  },
  {
    id: 'ent_newsletter',
    type: 'page',
    slug: ['newsletter', 'newsletter'],
    title: ['Newsletter', 'Newsletter'],
    summary: [
      'Once a month we write about new harvests, events and special offers. New readers get 10 % off their next order.',
      'Einmal im Monat schreiben wir über neue Ernten, Veranstaltungen und besondere Angebote. Neue Leserinnen und Leser erhalten 10 % Rabatt auf ihre nächste Bestellung.',
    ],
    body: [
      'Enter your email address at the bottom of any page and confirm the link we send you. We never pass your address on, and every mailing ends with a link to unsubscribe.',
      'Tragen Sie unten auf einer beliebigen Seite Ihre E-Mail-Adresse ein und bestätigen Sie den Link, den wir Ihnen schicken. Wir geben Ihre Adresse nie weiter, und am Ende jeder Ausgabe finden Sie einen Link zum Abmelden.',
    ],
  },
  {
    id: 'ent_accessibility',
    type: 'page',
    slug: ['accessibility', 'barrierefreiheit'],
    title: ['Accessibility statement', 'Erklärung zur Barrierefreiheit'],
    summary: [
      'Everyone should be able to use our website and visit our cafés. This statement describes where we stand.',
      'Alle Menschen sollen unsere Website nutzen und unsere Cafés besuchen können. Diese Erklärung beschreibt, wo wir stehen.',
    ],
    body: [
      'Our online shop aims to meet WCAG 2.1 level AA: it can be used with a keyboard alone or with a screen reader, and all images have text alternatives. The Ottensen café has step-free access for wheelchair users and pushchairs and an accessible toilet. If you come across a barrier, please tell us so that we can remove it.',
      'Unser Onlineshop soll WCAG 2.1 Stufe AA erfüllen: Er lässt sich allein mit der Tastatur oder mit einem Screenreader bedienen, und alle Bilder haben Textalternativen. Das Café in Ottensen ist für Rollstühle und Kinderwagen stufenlos zugänglich und hat eine barrierefreie Toilette. Wenn Sie auf eine Barriere stoßen, sagen Sie uns bitte Bescheid, damit wir sie beseitigen können.',
    ],
  },
  {
    id: 'ent_api',
    type: 'article',
    slug: ['partner-api', 'partner-api'],
    title: ['API for partners', 'API für Partner'],
    summary: [
      'Connect your till or office system directly to our roastery. The REST API is free for all business customers.',
      'Verbinden Sie Ihr Kassen- oder Bürosystem direkt mit unserer Rösterei. Die REST-API ist für alle Geschäftskunden kostenlos.',
    ],
    body: [
      'With the API you can fetch current products, prices and stock levels as JSON and place orders automatically. Requests are authenticated with a secret key that you create in the partner portal. The documentation includes examples in curl, Python and JavaScript.',
      'Über die API rufen Sie aktuelle Produkte, Preise und Lagerbestände als JSON ab und lösen Bestellungen automatisch aus. Anfragen werden mit einem geheimen Schlüssel authentifiziert, den Sie im Partnerportal erzeugen. Die Dokumentation enthält Beispiele in curl, Python und JavaScript.',
    ],
  },
  {
    id: 'ent_app',
    type: 'article',
    slug: ['app', 'app'],
    title: ['Our app', 'Unsere App'],
    summary: [
      'Our café and online shop in your pocket. The app is free for iPhone and Android.',
      'Unser Café und Onlineshop für die Hosentasche. Die App ist kostenlos für iPhone und Android.',
    ],
    body: [
      'Download it from the App Store or Google Play and use the same email address as in the online shop. On your phone you can browse all our coffees, manage your subscription and reorder your favourite beans with two taps.',
      'Laden Sie sie im App Store oder bei Google Play herunter und nutzen Sie dieselbe E-Mail-Adresse wie im Onlineshop. Auf dem Smartphone stöbern Sie durch alle unsere Kaffees, verwalten Ihr Abo und bestellen Ihre Lieblingsbohnen mit zwei Fingertipps nach.',
    ],
    section: {
      heading: ['Order ahead', 'Vorbestellen'],
      text: [
        'Place your café order on the way and collect it at the counter without queuing. The app lets you know as soon as your drink is ready, and payment happens in the app.',
        'Geben Sie Ihre Café-Bestellung schon unterwegs auf und holen Sie sie ohne Anstehen an der Theke ab. Die App meldet sich, sobald Ihr Getränk fertig ist; bezahlt wird direkt in der App.',
      ],
    },
  },
  {
    id: 'ent_locations',
    type: 'page',
    slug: ['locations', 'standorte'],
    title: ['Our cafés', 'Unsere Cafés'],
    summary: [
      'There are three places in Hamburg where you can drink our coffee. Each café also sells beans and brewing equipment.',
      'An drei Orten in Hamburg können Sie unseren Kaffee trinken. In jedem Café gibt es auch Bohnen und Zubehör zum Zubereiten.',
    ],
    body: [
      'Our flagship café and roastery is at Große Elbstraße 12 in Ottensen. You will also find us at Schanzenstraße 40 in the Sternschanze and at Mühlenkamp 8 in Winterhude. All three are a few minutes’ walk from a U-Bahn or S-Bahn station.',
      'Unser Stammhaus mit Rösterei liegt in der Großen Elbstraße 12 in Ottensen. Außerdem finden Sie uns in der Schanzenstraße 40 im Schanzenviertel und am Mühlenkamp 8 in Winterhude. Alle drei erreichen Sie in wenigen Gehminuten von einer U- oder S-Bahn-Station.',
    ],
    section: {
      heading: ['Getting here by bike or car', 'Anreise mit Rad oder Auto'],
      text: [
        'None of our cafés has its own car park, so we recommend coming by public transport. Bicycle stands are right outside every door.',
        'Keines unserer Cafés hat einen eigenen Parkplatz, wir empfehlen daher die Anreise mit Bus und Bahn. Fahrradbügel stehen direkt vor jeder Tür.',
      ],
    },
  },
  {
    id: 'ent_wholesale',
    type: 'page',
    slug: ['wholesale', 'grosshandel'],
    title: ['Wholesale for cafés and offices', 'Großhandel für Cafés und Büros'],
    summary: [
      'We supply restaurants, cafés and companies across northern Germany. Ask for a quote that fits your needs.',
      'Wir beliefern Restaurants, Cafés und Unternehmen in ganz Norddeutschland. Fordern Sie ein Angebot an, das zu Ihrem Bedarf passt.',
    ],
    body: [
      'Business customers order from 10 kg per month and get volume discounts of up to 20 %. We train your staff on the espresso machine, help you choose equipment and deliver with our own van in the Hamburg area. Our sales team will gladly arrange a free tasting at your premises.',
      'Geschäftskunden bestellen ab 10 kg im Monat und erhalten Mengenrabatte von bis zu 20 %. Wir schulen Ihr Personal an der Espressomaschine, beraten Sie bei der Ausstattung und liefern im Raum Hamburg mit unserem eigenen Transporter. Gern vereinbart unser Vertrieb eine kostenlose Verkostung bei Ihnen vor Ort.',
    ],
  },
  {
    id: 'ent_cookies',
    type: 'page',
    slug: ['cookies', 'cookies'],
    title: ['Cookie policy', 'Cookie-Richtlinie'],
    summary: [
      'Our website uses cookies and similar technologies. Here you can find out which ones and why.',
      'Unsere Website verwendet Cookies und ähnliche Technologien. Hier erfahren Sie, welche und wozu.',
    ],
    body: [
      'Strictly necessary cookies keep your shopping basket working and cannot be switched off. Analytics and marketing cookies are only set if you agree in the banner on your first visit. You can change your choice at any time using the “Cookie settings” link in the footer.',
      'Technisch notwendige Cookies sorgen dafür, dass Ihr Warenkorb funktioniert, und lassen sich nicht abschalten. Analyse- und Marketing-Cookies setzen wir nur, wenn Sie im Banner bei Ihrem ersten Besuch zustimmen. Ihre Auswahl können Sie jederzeit über den Link „Cookie-Einstellungen“ in der Fußzeile ändern.',
    ],
  },
  {
    id: 'ent_workshops',
    type: 'article',
    slug: ['courses', 'kurse'],
    title: ['Courses and tastings', 'Kurse und Verkostungen'],
    summary: [
      'Learn more about coffee with our team at the roastery. Courses run on weekday evenings and Saturday mornings in small groups.',
      'Lernen Sie mit unserem Team in der Rösterei mehr über Kaffee. Die Kurse finden abends unter der Woche und samstagvormittags in kleinen Gruppen statt.',
    ],
    body: [
      'All courses take place in our Ottensen roastery and last about three hours. Groups are limited to eight people; you book and pay online. Equipment, coffee and snacks are included.',
      'Alle Kurse finden in unserer Rösterei in Ottensen statt und dauern etwa drei Stunden. Die Gruppen sind auf acht Personen begrenzt; Sie buchen und bezahlen online. Geräte, Kaffee und Snacks sind inklusive.',
    ],
    section: {
      heading: ['Latte art for beginners', 'Latte Art für Einsteiger'],
      text: [
        'Steam milk to a silky microfoam and pour your first hearts and rosettas into a cappuccino. Our head barista shows you every step on a professional espresso machine.',
        'Schäumen Sie Milch zu feinem Mikroschaum auf und gießen Sie Ihre ersten Herzen und Rosetten in einen Cappuccino. Unser Head Barista zeigt Ihnen jeden Handgriff an einer professionellen Siebträgermaschine.',
      ],
    },
  },
  {
    id: 'ent_pets',
    type: 'article',
    slug: ['dogs', 'hunde'],
    title: ['Dogs welcome', 'Hunde willkommen'],
    summary: [
      'Four-legged guests are just as welcome as their owners. Here are a few house rules.',
      'Vierbeinige Gäste sind bei uns genauso willkommen wie ihre Menschen. Hier ein paar Hausregeln.',
    ],
    body: [
      'You may bring well-behaved dogs on a lead into all our cafés. There is a water bowl by the door and a jar of treats at the counter. For food safety reasons, please keep them off the benches and out of the roastery.',
      'Gut erzogene Hunde an der Leine dürfen mit in alle unsere Cafés. An der Tür steht ein Wassernapf, an der Theke ein Glas mit Leckerli. Aus Gründen der Lebensmittelhygiene lassen Sie sie bitte nicht auf die Bänke und nicht in die Rösterei.',
    ],
  },
  {
    id: 'ent_allergens',
    type: 'article',
    slug: ['food-allergens', 'speisen-allergene'],
    title: ['Food and allergens', 'Speisen und Allergene'],
    summary: [
      'Alongside coffee, our cafés serve breakfast, cakes and light lunches. Ask our team about the ingredients of any dish.',
      'Neben Kaffee gibt es in unseren Cafés Frühstück, Kuchen und kleine Mittagsgerichte. Fragen Sie unser Team nach den Zutaten jedes Gerichts.',
    ],
    body: [
      'Our cakes are baked fresh every morning in our own kitchen. Our staff keep a list of the 14 main allergens in every dish, and if you avoid dairy or gluten, they will point out what suits you.',
      'Unsere Kuchen backen wir jeden Morgen frisch in der eigenen Küche. Unser Personal hat eine Liste der 14 Hauptallergene aller Gerichte, und wenn Sie auf Milchprodukte oder Gluten verzichten, empfiehlt es Ihnen passende Speisen.',
    ],
    section: {
      heading: ['Milk alternatives', 'Milchalternativen'],
      text: [
        'Any coffee can be made with oat, almond or soy milk at no extra cost. All three are vegan, and our oat milk is gluten-free as well.',
        'Jeden Kaffee bereiten wir ohne Aufpreis auch mit Hafer-, Mandel- oder Sojamilch zu. Alle drei sind vegan, unsere Hafermilch ist außerdem glutenfrei.',
      ],
    },
  },
  {
    id: 'ent_origins',
    type: 'article',
    slug: ['origins', 'herkunft'],
    title: ['Where our coffee comes from', 'Woher unser Kaffee kommt'],
    summary: [
      'Every coffee we roast can be traced to the farm it was grown on. We visit our partners at least once a year.',
      'Jeden Kaffee, den wir rösten, können wir bis zu der Farm zurückverfolgen, auf der er gewachsen ist. Unsere Partner besuchen wir mindestens einmal im Jahr.',
    ],
    body: [
      'We buy directly from farmers and cooperatives in Ethiopia, Colombia, Brazil and Guatemala and pay well above the Fairtrade minimum price. Long-term contracts give the farms planning security, and a share of every bag sold goes into a fund for local schools and clean water.',
      'Wir kaufen direkt bei Bäuerinnen, Bauern und Kooperativen in Äthiopien, Kolumbien, Brasilien und Guatemala und zahlen deutlich mehr als den Fairtrade-Mindestpreis. Langfristige Verträge geben den Farmen Planungssicherheit, und ein Teil jedes verkauften Beutels fließt in einen Fonds für Schulen und sauberes Wasser vor Ort.',
    ],
    section: {
      heading: ['Our partner farms', 'Unsere Partnerfarmen'],
      text: [
        'In the Sidamo region of Ethiopia we work with a cooperative of 800 smallholders. In Huila, Colombia, the Pérez family has grown coffee for us since 2014.',
        'In der Region Sidamo in Äthiopien arbeiten wir mit einer Kooperative aus 800 Kleinbauern zusammen. In Huila in Kolumbien baut Familie Pérez seit 2014 Kaffee für uns an.',
      ],
    },
  },
];

export interface LabelledQuery {
  q: string;
  locale: 'en' | 'de';
  /** The id of the one entry that answers the query best. */
  expect: string;
}

export const QUERIES: readonly LabelledQuery[] = [
  { locale: 'en', q: "can I send back a kettle I don't need and get my money back", expect: 'ent_returns' },
  { locale: 'en', q: "forgot my password and can't log in", expect: 'ent_account' },
  { locale: 'en', q: 'how much does it cost to get a bag every two weeks', expect: 'ent_plans' },
  { locale: 'en', q: "skip deliveries while I'm on holiday", expect: 'ent_cancel' },
  { locale: 'en', q: 'do you sell my information to other companies', expect: 'ent_privacy' },
  { locale: 'en', q: 'what time do you close on Saturdays', expect: 'ent_hours' },
  { locale: 'en', q: 'is there a number I can call', expect: 'ent_contact' },
  { locale: 'en', q: 'do you have any barista jobs open', expect: 'ent_careers' },
  { locale: 'en', q: 'when was the roastery founded and by whom', expect: 'ent_history' },
  { locale: 'en', q: 'is your packaging free of plastic', expect: 'ent_sustainability' },
  { locale: 'en', q: 'use up the remaining balance on a voucher', expect: 'ent_giftcards' },
  { locale: 'en', q: 'do you take PayPal', expect: 'ent_payment' },
  { locale: 'en', q: 'my coffee maker is leaking, can you fix it', expect: 'ent_warranty' },
  { locale: 'en', q: 'how coarse should coffee be for a French press', expect: 'ent_grind' },
  { locale: 'en', q: 'earn a free drink for coming often', expect: 'ent_loyalty' },
  { locale: 'en', q: 'how do I unsubscribe from your emails', expect: 'ent_newsletter' },
  { locale: 'en', q: 'is there wheelchair access', expect: 'ent_accessibility' },
  { locale: 'en', q: 'can my developers pull your stock levels automatically', expect: 'ent_api' },
  { locale: 'en', q: "order ahead on my phone so I don't have to queue", expect: 'ent_app' },
  { locale: 'en', q: 'is there a branch near Sternschanze', expect: 'ent_locations' },
  { locale: 'en', q: 'discount if our café buys 20 kg every month', expect: 'ent_wholesale' },
  { locale: 'en', q: 'opt out of analytics and marketing tracking', expect: 'ent_cookies' },
  { locale: 'en', q: 'learn to pour a heart into milk foam', expect: 'ent_workshops' },
  { locale: 'en', q: 'can I bring my puppy along', expect: 'ent_pets' },
  { locale: 'en', q: 'is there a dairy-free alternative for my flat white', expect: 'ent_allergens' },
  { locale: 'en', q: 'do the farmers get a fair price', expect: 'ent_origins' },
  { locale: 'de', q: 'wie schnell kommt das Paket mit DHL', expect: 'ent_shipping' },
  { locale: 'de', q: 'Geld zurück für unbenutzte Tassen', expect: 'ent_returns' },
  { locale: 'de', q: 'kann ich jederzeit kündigen', expect: 'ent_cancel' },
  { locale: 'de', q: 'gespeicherte Informationen löschen', expect: 'ent_privacy' },
  { locale: 'de', q: 'an Feiertagen offen?', expect: 'ent_hours' },
  { locale: 'de', q: 'leere Kaffeebeutel kompostieren', expect: 'ent_sustainability' },
  { locale: 'de', q: 'Bezahlung per Rechnung', expect: 'ent_payment' },
  { locale: 'de', q: 'Zollgebühren bei Versand in die Schweiz', expect: 'ent_international' },
  { locale: 'de', q: 'Kaffeemaschine entkalken', expect: 'ent_warranty' },
  { locale: 'de', q: 'Lagerbestände automatisch abfragen', expect: 'ent_api' },
  { locale: 'de', q: 'Filiale in Winterhude', expect: 'ent_locations' },
  { locale: 'de', q: 'Bauern in Äthiopien fair bezahlt?', expect: 'ent_origins' },
];

const published = { at: '2026-03-01T10:00:00.000Z', firstAt: '2026-01-01T10:00:00.000Z' };
const loc = ([en, de]: Text) => ({ en, de });
const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** A bundle (format folio-bundle@1) of space `spaceId` with `ai` as given. */
export function searchBundle(spaceId = 'spc_search', ai = true): Record<string, unknown> {
  const fields = [
    { key: 'title', type: 'text', localized: true },
    { key: 'summary', type: 'textarea', localized: true },
    { key: 'body', type: 'richtext', localized: true },
    { key: 'sections', type: 'blocks', blocks: ['textBlock'] },
  ];
  return {
    format: 'folio-bundle@1',
    space: {
      id: spaceId,
      name: 'Search quality',
      ai,
      timeZone: 'UTC',
      locales: [
        { code: 'en', default: true },
        { code: 'de', fallbacks: [] },
      ],
    },
    tokens: [
      { kind: 'public', value: SEARCH_TOKEN },
      { kind: 'management', value: SEARCH_MGT_TOKEN },
    ],
    types: [
      { key: 'page', kind: 'page', fields },
      { key: 'article', kind: 'collection', pages: true, fields },
      {
        key: 'textBlock',
        kind: 'block',
        fields: [
          { key: 'heading', type: 'text', localized: true },
          { key: 'text', type: 'textarea', localized: true },
        ],
      },
    ],
    entries: TOPICS.map((t, i) => ({
      id: t.id,
      type: t.type,
      name: t.title[0],
      slug: t.slug[0],
      slugs: { de: t.slug[1] },
      parent: null,
      position: i,
      tags: [],
      published,
      fields: {
        title: loc(t.title),
        summary: loc(t.summary),
        body: { en: doc(t.body[0]), de: doc(t.body[1]) },
        ...(t.section
          ? {
              sections: [
                {
                  id: `blk_${t.id.slice(4)}`,
                  type: 'textBlock',
                  fields: { heading: loc(t.section.heading), text: loc(t.section.text) },
                },
              ],
            }
          : {}),
      },
    })),
  };
}

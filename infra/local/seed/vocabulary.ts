// Names, places and institutions the demo data is drawn from: mostly Portuguese, with the
// nationalities a school in Porto actually enrols.

export const femaleNames = [
  'Maria',
  'Ana',
  'Beatriz',
  'Inês',
  'Mariana',
  'Leonor',
  'Matilde',
  'Carolina',
  'Sofia',
  'Francisca',
  'Margarida',
  'Joana',
  'Rita',
  'Catarina',
  'Helena',
  'Teresa',
  'Madalena',
  'Clara',
  'Luísa',
  'Benedita',
];
export const maleNames = [
  'João',
  'Francisco',
  'Afonso',
  'Tomás',
  'Duarte',
  'Santiago',
  'Rodrigo',
  'Martim',
  'Gonçalo',
  'Miguel',
  'Lourenço',
  'Pedro',
  'Diogo',
  'Tiago',
  'Rafael',
  'Gustavo',
  'Henrique',
  'Vasco',
  'Salvador',
  'Simão',
];
export const surnames = [
  'Silva',
  'Santos',
  'Ferreira',
  'Pereira',
  'Oliveira',
  'Costa',
  'Rodrigues',
  'Martins',
  'Jesus',
  'Sousa',
  'Fernandes',
  'Gonçalves',
  'Gomes',
  'Lopes',
  'Marques',
  'Alves',
  'Almeida',
  'Ribeiro',
  'Pinto',
  'Carvalho',
  'Teixeira',
  'Moreira',
  'Correia',
  'Mendes',
  'Nunes',
  'Soares',
  'Vieira',
  'Monteiro',
  'Cardoso',
  'Rocha',
];

export interface Origin {
  nationality: string;
  birthplaces: string[];
  female: string[];
  male: string[];
  surnames: string[];
  /** Portuguese citizens carry a Cartão de Cidadão; others a passport and a residence permit. */
  citizen: boolean;
}

export const portuguese: Origin = {
  nationality: 'Portuguese',
  birthplaces: ['Porto', 'Vila Nova de Gaia', 'Matosinhos', 'Braga', 'Lisboa', 'Coimbra', 'Aveiro', 'Viseu'],
  female: femaleNames,
  male: maleNames,
  surnames,
  citizen: true,
};

export const foreignOrigins: Origin[] = [
  {
    nationality: 'Brazilian',
    birthplaces: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba'],
    female: ['Júlia', 'Larissa', 'Yasmin', 'Gabriela'],
    male: ['Enzo', 'Davi', 'Arthur', 'Heitor'],
    surnames: ['Souza', 'Lima', 'Araújo', 'Barbosa', 'Cavalcanti'],
    citizen: false,
  },
  {
    nationality: 'Cape Verdean',
    birthplaces: ['Praia', 'Mindelo'],
    female: ['Djamila', 'Elisângela', 'Nádia'],
    male: ['Adilson', 'Edmilson', 'Kelvin'],
    surnames: ['Tavares', 'Semedo', 'Furtado', 'Varela'],
    citizen: false,
  },
  {
    nationality: 'Angolan',
    birthplaces: ['Luanda', 'Benguela', 'Huambo'],
    female: ['Ngueza', 'Esperança', 'Luzia'],
    male: ['Kiluanje', 'Domingos', 'Nzinga'],
    surnames: ['Mbala', 'Kiala', 'Neto', 'Domingos'],
    citizen: false,
  },
  {
    nationality: 'Ukrainian',
    birthplaces: ['Kyiv', 'Lviv', 'Kharkiv', 'Odesa'],
    female: ['Oksana', 'Iryna', 'Sofiia', 'Anastasiia'],
    male: ['Oleksandr', 'Dmytro', 'Andrii', 'Maksym'],
    surnames: ['Kovalenko', 'Shevchenko', 'Bondarenko', 'Tkachenko'],
    citizen: false,
  },
  {
    nationality: 'Chinese',
    birthplaces: ['Wenzhou', 'Shanghai', 'Qingtian'],
    female: ['Mei', 'Xiaoling', 'Yan'],
    male: ['Wei', 'Hao', 'Jun'],
    surnames: ['Wang', 'Li', 'Zhang', 'Chen'],
    citizen: false,
  },
  {
    nationality: 'Indian',
    birthplaces: ['Mumbai', 'Goa', 'Delhi'],
    female: ['Priya', 'Ananya', 'Diya'],
    male: ['Arjun', 'Rohan', 'Vivaan'],
    surnames: ['Sharma', 'Patel', 'Fernandes', 'Gupta'],
    citizen: false,
  },
  {
    nationality: 'French',
    birthplaces: ['Paris', 'Lyon', 'Toulouse'],
    female: ['Chloé', 'Camille', 'Léa'],
    male: ['Lucas', 'Hugo', 'Théo'],
    surnames: ['Martin', 'Bernard', 'Dubois', 'Moreau'],
    citizen: false,
  },
  {
    nationality: 'Spanish',
    birthplaces: ['Vigo', 'Madrid', 'Sevilla'],
    female: ['Lucía', 'Paula', 'Alba'],
    male: ['Hugo', 'Pablo', 'Álvaro'],
    surnames: ['García', 'Fernández', 'López', 'Castro'],
    citizen: false,
  },
];

export const localities = [
  {
    city: 'Porto',
    postal: '4000',
    zone: '13',
    streets: [
      'Rua de Cedofeita',
      'Rua de Santa Catarina',
      'Avenida da Boavista',
      'Rua do Almada',
      'Rua de Costa Cabral',
    ],
  },
  {
    city: 'Vila Nova de Gaia',
    postal: '4400',
    zone: '13',
    streets: ['Avenida da República', 'Rua Cândido dos Reis', 'Rua Soares dos Reis'],
  },
  {
    city: 'Matosinhos',
    postal: '4450',
    zone: '13',
    streets: ['Rua Brito Capelo', 'Avenida Norton de Matos', 'Rua Roberto Ivens'],
  },
  {
    city: 'Maia',
    postal: '4470',
    zone: '13',
    streets: ['Avenida Visconde de Barreiros', 'Rua Simão Bolívar'],
  },
  { city: 'Gondomar', postal: '4420', zone: '13', streets: ['Rua 25 de Abril', 'Avenida Multiusos'] },
];

export const floors = ['', '', 'R/C Esq.', '1.º Dto.', '2.º Esq.', '3.º Frente', '4.º Dto. Trás', 'Casa 2'];

export const portugueseBanks = [
  { code: '0035', name: 'Caixa Geral de Depósitos' },
  { code: '0033', name: 'Millennium bcp' },
  { code: '0018', name: 'Santander Totta' },
  { code: '0007', name: 'Novo Banco' },
  { code: '0010', name: 'BPI' },
  { code: '0045', name: 'Crédito Agrícola' },
];

export const adultMaritalStatuses = [
  'single',
  'married',
  'married',
  'married',
  'divorced',
  'civil union',
  'widowed',
];

export const organisations = [
  { name: 'Agrupamento de Escolas Demo do Porto', domain: 'aedemo.example', nifPrefix: '6' },
  { name: 'Câmara Municipal do Porto', domain: 'cm-porto.example', nifPrefix: '5' },
  { name: 'Transportes Escolares do Norte, Lda.', domain: 'ten-transportes.example', nifPrefix: '5' },
  { name: 'Cantina Sabores & Saberes, Lda.', domain: 'sabores-saberes.example', nifPrefix: '5' },
  { name: 'Associação de Pais e Encarregados de Educação', domain: 'apee-demo.example', nifPrefix: '5' },
  { name: 'Livraria Académica do Porto', domain: 'livraria-academica.example', nifPrefix: '5' },
  { name: 'Clínica Médica da Boavista', domain: 'clinica-boavista.example', nifPrefix: '5' },
  { name: 'Clube Desportivo Infante', domain: 'cd-infante.example', nifPrefix: '5' },
];

/** The schools of the agrupamento, by the grades (anos) each teaches. */
export const schools = [
  { name: 'Escola Básica de Cedofeita', domain: 'eb-cedofeita.aedemo.example', grades: [1, 4] },
  { name: 'Escola Básica Infante D. Henrique', domain: 'eb-infante.aedemo.example', grades: [5, 9] },
  { name: 'Escola Secundária Demo do Porto', domain: 'es-porto.aedemo.example', grades: [10, 12] },
] as const;

/** The three terms (períodos) of 2026/27. */
export const terms = [
  { title: '1.º período', start: '2026-09-14', end: '2026-12-18' },
  { title: '2.º período', start: '2027-01-04', end: '2027-03-26' },
  { title: '3.º período', start: '2027-04-12', end: '2027-06-30' },
] as const;

interface Subject {
  name: string;
  code: string;
  /** Where it is taught, when not in the class's own room. */
  room?: string;
}

const subject = (name: string, code: string, room?: string): Subject => ({
  name,
  code,
  ...(room ? { room } : {}),
});

const portugues = subject('Português', 'PORT');
const ingles = subject('Inglês', 'ING');
const matematica = subject('Matemática', 'MAT');
const educacaoFisica = subject('Educação Física', 'EF', 'Pavilhão');
const cidadania = subject('Cidadania e Desenvolvimento', 'CD');

/**
 * The subjects of a grade in the Portuguese curriculum (Decreto-Lei 55/2018), the sciences and
 * technologies course in secondary school; with the homeroom, 6 to 10 classes a student.
 */
export function curriculum(grade: number): Subject[] {
  if (grade <= 2)
    return [
      portugues,
      matematica,
      subject('Estudo do Meio', 'EM'),
      subject('Educação Artística', 'EA'),
      subject('Educação Física', 'EF', 'Ginásio'),
    ];
  if (grade <= 4)
    return [
      portugues,
      matematica,
      subject('Estudo do Meio', 'EM'),
      ingles,
      subject('Educação Artística', 'EA'),
      subject('Educação Física', 'EF', 'Ginásio'),
    ];
  if (grade <= 6)
    return [
      portugues,
      ingles,
      subject('História e Geografia de Portugal', 'HGP'),
      matematica,
      subject('Ciências Naturais', 'CN', 'Laboratório 1'),
      subject('Educação Visual', 'EV', 'Sala de Artes'),
      subject('Educação Musical', 'EMUS', 'Sala de Música'),
      educacaoFisica,
      cidadania,
    ];
  if (grade <= 9)
    return [
      portugues,
      ingles,
      subject('Francês', 'FR'),
      subject('História', 'HIST'),
      subject('Geografia', 'GEO'),
      matematica,
      subject('Ciências Naturais', 'CN', 'Laboratório 1'),
      subject('Físico-Química', 'FQ', 'Laboratório 2'),
      educacaoFisica,
    ];
  return [
    portugues,
    ingles,
    subject('Filosofia', 'FIL'),
    subject('Matemática A', 'MATA'),
    subject('Física e Química A', 'FQA', 'Laboratório 2'),
    subject('Biologia e Geologia', 'BG', 'Laboratório 1'),
    educacaoFisica,
  ];
}

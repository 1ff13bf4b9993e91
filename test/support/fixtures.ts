// Valid insert requests for every group, for tests that write.
let sequence = 0;

export function personBody(prefix = 'T') {
  sequence += 1;
  return {
    processnumber: `${prefix}${Date.now().toString(36)}${sequence}`,
    ative: true,
    email: `person${sequence}@example.org`,
    name: `Pessoa de Teste ${sequence}`,
    gender: 'Female',
    photobase64: '',
    birth_date: '2012-05-17',
    naturality: 'Porto',
    nationality: 'Portuguese',
    marital_status: 'single',
    deceased: false,
    addresses: [
      {
        address: 'Rua de Cedofeita, 10',
        address2: '',
        zone_code: '13',
        postal_code: '4050-174',
        city: 'Porto',
        country: 'Portugal',
      },
    ],
    contacts: [{ contact: '+351 912 345 678', contact_type_name: 'Phone' }],
    documents: [
      {
        init_date: '2024-01-10',
        end_date: '2029-01-09',
        identification_document_value: '12345678 9 ZZ1',
        identification_document_type_name: 'NationalID',
      },
    ],
    bankAccounts: [
      {
        back_account_number: 'PT50000201231234567890154',
        country_name: 'Portugal',
        entity_bank_account_type: 'IBAN',
      },
    ],
  };
}

export function organisationBody() {
  sequence += 1;
  return {
    entity_type: 'organisation',
    name: `Fornecedor ${sequence}, Lda.`,
    email: `geral${sequence}@fornecedor.example`,
    addresses: [],
    contacts: [],
    documents: [],
    bankAccounts: [],
  };
}

export const documentBody = {
  init_date: '2025-03-01',
  end_date: '2035-02-28',
  identification_document_value: 'CB1234567',
  identification_document_type_name: 'Passport',
};

/**
 * What other contexts may use of customers: the customer as its decider knows it, the commands it
 * takes (sent with `commands.send(customerAggregate, …)`), and the offline EU VAT check. Pure, so a domain folder may import it (the architecture test keeps it so).
 */
export type { CustomerCommand, CustomerState } from './domain/customer.decider';
export { validateEuVat } from './domain/tax-ids/eu-vat';

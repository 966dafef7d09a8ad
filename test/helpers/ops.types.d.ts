/** Types of the Prometheus text-format parser used by the operations tests (the package ships none). */
declare module "parse-prometheus-text-format" {
  const parse: (text: string) => unknown[];
  export default parse;
}

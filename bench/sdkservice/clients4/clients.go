// Package clients4 holds AWS clients.
package clients4

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	athena "github.com/aws/aws-sdk-go-v2/service/athena"
	cloudformation "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	databasemigrationservice "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice"
	ecrpublic "github.com/aws/aws-sdk-go-v2/service/ecrpublic"
	elasticloadbalancingv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	iam "github.com/aws/aws-sdk-go-v2/service/iam"
	lambda "github.com/aws/aws-sdk-go-v2/service/lambda"
	pricing "github.com/aws/aws-sdk-go-v2/service/pricing"
	s3 "github.com/aws/aws-sdk-go-v2/service/s3"
	ses "github.com/aws/aws-sdk-go-v2/service/ses"
	ssoadmin "github.com/aws/aws-sdk-go-v2/service/ssoadmin"
)

// Clients are the service clients.
type Clients struct {
	Athena                   *athena.Client
	Cloudformation           *cloudformation.Client
	Databasemigrationservice *databasemigrationservice.Client
	Ecrpublic                *ecrpublic.Client
	Elasticloadbalancingv2   *elasticloadbalancingv2.Client
	Iam                      *iam.Client
	Lambda                   *lambda.Client
	Pricing                  *pricing.Client
	S3                       *s3.Client
	Ses                      *ses.Client
	Ssoadmin                 *ssoadmin.Client
}

// New makes every client.
func New(cfg aws.Config) *Clients {
	return &Clients{
		Athena:                   athena.NewFromConfig(cfg),
		Cloudformation:           cloudformation.NewFromConfig(cfg),
		Databasemigrationservice: databasemigrationservice.NewFromConfig(cfg),
		Ecrpublic:                ecrpublic.NewFromConfig(cfg),
		Elasticloadbalancingv2:   elasticloadbalancingv2.NewFromConfig(cfg),
		Iam:                      iam.NewFromConfig(cfg),
		Lambda:                   lambda.NewFromConfig(cfg),
		Pricing:                  pricing.NewFromConfig(cfg),
		S3:                       s3.NewFromConfig(cfg),
		Ses:                      ses.NewFromConfig(cfg),
		Ssoadmin:                 ssoadmin.NewFromConfig(cfg),
	}
}
